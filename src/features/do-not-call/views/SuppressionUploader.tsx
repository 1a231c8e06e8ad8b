/**
 * The upload of a suppression list file, for the admin area (a new or existing shared list) and for My
 * Account (the buyer's own list): the list's details checked by the server's own schemas, the file read
 * in a Web Worker, then progress, a refused file, the review of rejected lines, or the report.
 */
import { type SubmitEvent, useId, useState } from "react";
import type { z } from "zod";
import { formatCount } from "../../../domain/format";
import { Button } from "../../../ui/button";
import { Form } from "../../../ui/form";
import { Field, SelectField } from "../../../ui/input";
import { fieldErrorClass, labelClass } from "../../../ui/styles";
import { PRIVATE_LIST_LIMITS } from "../private-lists";
import type { SuppressionListView, SuppressionUploadView } from "../schemas/suppression";
import { ADMIN_UPLOAD_LIST_KINDS, SUPPRESSION_LIST_KIND_LABELS } from "../suppression";
import { SUPPRESSION_FILE_KIND_LABELS, SUPPRESSION_FILE_KINDS, type SuppressionFileKind } from "../suppression-file";
import { FileRefused, ReviewRejected, UploadProgress, UploadReport } from "./UploadViews";
import type { UploadTarget } from "./upload-api";
import { useSuppressionUpload } from "./useSuppressionUpload";

const NEW_LIST = "new";
const FILE_REQUIRED = "Choose the list's file (.txt or .csv, one number a line)";

/** Today in the browser's own time zone, as the date input wants it. */
const localToday = () => {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
};

function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return errors;
}

export function SuppressionUploader({
  scope,
  lists = [],
  defaultName = "",
  onDone,
}: {
  scope: "admin" | "buyer";
  /** The shared lists an admin may upload a new copy of. */
  lists?: readonly SuppressionListView[];
  defaultName?: string;
  onDone: (upload: SuppressionUploadView) => void;
}) {
  const { stage, begin, loadReviewed, reset } = useSuppressionUpload(scope, onDone);
  const id = useId();
  const [listId, setListId] = useState(NEW_LIST);
  const [name, setName] = useState(defaultName);
  const [kind, setKind] = useState<string>(ADMIN_UPLOAD_LIST_KINDS[0]);
  const [contents, setContents] = useState<string>("full");
  const [refreshedOn, setRefreshedOn] = useState(localToday);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const uploadable = lists.filter((list) => (ADMIN_UPLOAD_LIST_KINDS as readonly string[]).includes(list.kind));

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    // The rules (and zod) load with the first upload, not with the page (decision 0032's budget).
    const { buyerSuppressionListSchema, suppressionListSchema } = await import("../schemas/suppression");
    const common = { contents, refreshedOn };
    let target: UploadTarget;
    const checked =
      scope === "buyer"
        ? buyerSuppressionListSchema.safeParse({ name, ...common })
        : listId === NEW_LIST
          ? suppressionListSchema.safeParse({ name, kind, ...common })
          : buyerSuppressionListSchema.omit({ name: true }).safeParse(common);
    const found = checked.success ? {} : fieldErrors(checked.error);
    if (!file) found.file = FILE_REQUIRED;
    setErrors(found);
    if (!checked.success || !file) return;
    const values = checked.data as {
      name?: string;
      kind?: (typeof ADMIN_UPLOAD_LIST_KINDS)[number];
      contents: SuppressionFileKind;
      refreshedOn: string;
    };
    if (scope === "buyer") target = { scope, name: values.name ?? "" };
    else if (listId === NEW_LIST)
      target = { scope, kind: values.kind ?? ADMIN_UPLOAD_LIST_KINDS[0], name: values.name ?? "" };
    else target = { scope, listId: Number(listId) };
    begin(file, { target, contents: values.contents, refreshedOn: values.refreshedOn });
  }

  if (stage.name === "checking" || stage.name === "sending" || stage.name === "applying")
    return <UploadProgress stage={stage} />;
  if (stage.name === "refused" || stage.name === "failed") return <FileRefused stage={stage} onClose={reset} />;
  if (stage.name === "review") return <ReviewRejected stage={stage} onLoad={loadReviewed} onCancel={reset} />;
  if (stage.name === "done") return <UploadReport upload={stage.upload} onClose={reset} />;

  const fileId = `${id}-file`;
  return (
    <Form onSubmit={submit} className="grid gap-4 sm:grid-cols-2" aria-label="Upload a suppression list">
      {scope === "admin" && (
        <SelectField
          label="List"
          value={listId}
          onChange={(event) => setListId(event.target.value)}
          options={[
            { value: NEW_LIST, label: "A new list" },
            ...uploadable.map((list) => ({
              value: String(list.id),
              label: `${list.name} (${SUPPRESSION_LIST_KIND_LABELS[list.kind]})`,
            })),
          ]}
        />
      )}
      {(scope === "buyer" || listId === NEW_LIST) && (
        <Field
          label="List name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={errors.name}
          maxLength={100}
        />
      )}
      {scope === "admin" && listId === NEW_LIST && (
        <SelectField
          label="Kind"
          value={kind}
          onChange={(event) => setKind(event.target.value)}
          error={errors.kind}
          options={ADMIN_UPLOAD_LIST_KINDS.map((value) => ({ value, label: SUPPRESSION_LIST_KIND_LABELS[value] }))}
        />
      )}
      <SelectField
        label="The file holds"
        value={contents}
        onChange={(event) => setContents(event.target.value)}
        error={errors.contents}
        options={SUPPRESSION_FILE_KINDS.map((value) => ({ value, label: SUPPRESSION_FILE_KIND_LABELS[value] }))}
      />
      <Field
        label="Refreshed on"
        type="date"
        value={refreshedOn}
        max={localToday()}
        onChange={(event) => setRefreshedOn(event.target.value)}
        error={errors.refreshedOn}
        hint={
          scope === "admin"
            ? "The day the source list was downloaded. Lists older than 31 days are flagged."
            : "The day your list was last brought up to date."
        }
      />
      <div className="sm:col-span-2">
        <label htmlFor={fileId} className={labelClass}>
          File
        </label>
        <input
          id={fileId}
          type="file"
          accept=".txt,.csv,text/plain,text/csv"
          aria-invalid={errors.file ? true : undefined}
          aria-describedby={errors.file ? `${fileId}-error` : `${fileId}-hint`}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          className="block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-700"
        />
        <p id={`${fileId}-hint`} className="mt-1.5 text-sm text-muted">
          {scope === "admin"
            ? "One 10-digit number a line, or area code,number; a change list flags each line A or D."
            : `A text or CSV file with one phone number a line, written any way: 3055550100, (305) 555-0100, +1 305 555 0100. Your list holds up to ${formatCount(PRIVATE_LIST_LIMITS.numbers)} numbers.`}
        </p>
        {errors.file && (
          <p id={`${fileId}-error`} className={fieldErrorClass} role="alert">
            {errors.file}
          </p>
        )}
      </div>
      <div className="sm:col-span-2">
        <Button type="submit">Upload list</Button>
      </div>
    </Form>
  );
}

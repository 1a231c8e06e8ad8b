/**
 * Loading a whole registry copy from the Do Not Call tab (docs/decisions/0083-loading-the-whole-registry.md):
 * the admin chooses the registry's folder (full/AAA.txt, changes/AAA.txt, as the FTC's files and
 * `npm run simulate:registry` lay them out); each file goes to R2 in parts read with File.slice, one part in
 * memory at a time, never a whole file; then the Queue applies it area code by area code while this shows
 * each file's progress. Closed and opened again, it resumes: the upload's status says which parts are in.
 * Loaded only when the admin opens it (its own chunk, outside the tab's page budget).
 */
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { formatCount } from "../../../domain/format";
import { ApiError, api, call } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Field, SelectField } from "../../../ui/input";
import { labelClass } from "../../../ui/styles";
import { Table } from "../../../ui/table";
import type { RegistryFileKind } from "../registry-file";
import {
  partCount,
  REGISTRY_PART_BYTES,
  REGISTRY_SCOPES,
  REGISTRY_UPLOAD_STATUS_LABELS,
  type RegistryUploadScope,
  registryFileOf,
} from "../registry-upload";
import type { RegistryUploadView } from "../schemas/registry-upload";

const uploads = api.admin["registry-uploads"];
const POLL_MS = 1000;
const n = formatCount;

interface Chosen {
  file: File;
  areaCode: number;
  kind: RegistryFileKind;
}

const keyOf = (areaCode: number, kind: string) => `${areaCode}/${kind}`;
const today = () => new Date().toISOString().slice(0, 10);

/** The registry files among the chosen ones (others are left out). */
function registryFiles(list: FileList | null): Chosen[] {
  const chosen: Chosen[] = [];
  for (const file of list ?? []) {
    const found = registryFileOf(file.webkitRelativePath || file.name);
    if (found) chosen.push({ file, ...found });
  }
  return chosen;
}

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.serverMessage : "The server could not be reached.";

/** Sends every part the upload does not have yet, one at a time; answers the bytes sent. */
async function sendMissing(upload: RegistryUploadView, chosen: Chosen[], onSent: (bytes: number) => void) {
  const byKey = new Map(chosen.map((one) => [keyOf(one.areaCode, one.kind), one.file]));
  for (const sent of upload.files) {
    const file = byKey.get(keyOf(sent.areaCode, sent.kind));
    if (!file || sent.status === "refused") continue;
    for (let part = 1; part <= partCount(sent.size); part++) {
      if (sent.partsReceived.includes(part)) continue;
      const blob = file.slice((part - 1) * REGISTRY_PART_BYTES, part * REGISTRY_PART_BYTES);
      const param = { id: String(upload.id), fileId: String(sent.id), part: String(part) };
      try {
        await call(uploads[":id"].files[":fileId"].parts[":part"].$put({ param, form: { part: blob as File } }));
      } catch (error) {
        // A refused file (wrong format, another area code, cut off) is reported in the status; go on.
        if (!(error instanceof ApiError) || error.status !== 400) throw error;
      }
      onSent(blob.size);
    }
  }
}

export default function RegistryUploader() {
  const folderId = useId();
  const [scope, setScope] = useState<RegistryUploadScope>("national");
  const [downloadDate, setDownloadDate] = useState(today);
  const [san, setSan] = useState("");
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState<{ sent: number; of: number } | null>(null);
  const [uploadId, setUploadId] = useState<number | null>(null);

  const recent = useQuery({ queryKey: ["registry-uploads"], queryFn: () => call(uploads.$get()) });
  const interrupted = uploadId === null ? recent.data?.uploads.find((one) => one.status === "receiving") : undefined;
  const status = useQuery({
    queryKey: ["registry-upload", uploadId],
    enabled: uploadId !== null && sending === null,
    queryFn: () => call(uploads[":id"].$get({ param: { id: String(uploadId) } })),
    refetchInterval: (query) => (query.state.data?.status === "applying" ? POLL_MS : false),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (chosen.length === 0) {
      setError("Choose the registry's folder: it holds no file named AAA.txt or changes/AAA.txt.");
      return;
    }
    try {
      // The same copy's interrupted upload with the same files is resumed; anything else starts afresh.
      let upload = interrupted ? await call(uploads[":id"].$get({ param: { id: String(interrupted.id) } })) : null;
      const same =
        upload?.scope === scope &&
        upload.files.length === chosen.length &&
        chosen.every((one) =>
          upload?.files.some((f) => f.areaCode === one.areaCode && f.kind === one.kind && f.size === one.file.size),
        );
      if (!upload || !same) {
        const files = chosen.map(({ areaCode, kind, file }) => ({ areaCode, kind, size: file.size }));
        const json = { scope, downloadDate, files, ...(scope === "national" ? { san } : {}) };
        upload = await call(uploads.$post({ json }));
      }
      const total = upload.files.reduce((sum, file) => sum + file.size, 0);
      const already = upload.files.reduce(
        (sum, file) => sum + Math.min(file.size, file.partsReceived.length * REGISTRY_PART_BYTES),
        0,
      );
      let sent = already;
      setSending({ sent, of: total });
      setUploadId(upload.id);
      await sendMissing(upload, chosen, (bytes) => {
        sent += bytes;
        setSending({ sent, of: total });
      });
      await call(uploads[":id"].finish.$post({ param: { id: String(upload.id) } }));
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSending(null);
    }
  }

  const upload = status.data;
  return (
    <div className="space-y-4">
      <form onSubmit={(event) => void submit(event)} className="grid gap-4 sm:grid-cols-2" noValidate>
        <SelectField
          label="Registry"
          value={scope}
          onChange={(event) => setScope(event.target.value as RegistryUploadScope)}
          options={REGISTRY_SCOPES.map((one) => ({
            value: one,
            label: one === "national" ? "National Do Not Call Registry" : `${one} state list`,
          }))}
        />
        <Field
          label="Download date"
          type="date"
          value={downloadDate}
          onChange={(event) => setDownloadDate(event.target.value)}
          hint="The day the files were downloaded from the registry; it becomes the list's refreshed-on day."
        />
        {scope === "national" && (
          <Field
            label="Subscription Account Number (SAN)"
            value={san}
            onChange={(event) => setSan(event.target.value)}
            hint="The shop's account number with the National Do Not Call Registry, recorded with the upload."
          />
        )}
        <div className="sm:col-span-2">
          <label htmlFor={folderId} className={labelClass}>
            Registry folder
          </label>
          <input
            id={folderId}
            type="file"
            multiple
            {...{ webkitdirectory: "" }}
            aria-describedby={`${folderId}-hint`}
            onChange={(event) => setChosen(registryFiles(event.target.files))}
            className="block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:font-medium file:text-brand-700"
          />
          <p id={`${folderId}-hint`} className="mt-1.5 text-sm text-muted">
            The folder of area-code files: full/AAA.txt (555,1234567 a line) and changes/AAA.txt
            (555,1234567,YYYY-MM-DD,A or D). {chosen.length > 0 && `${n(chosen.length)} files chosen.`}
          </p>
        </div>
        {interrupted && (
          <p className="sm:col-span-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm" role="status">
            Upload {interrupted.id} ({interrupted.scope}, downloaded {interrupted.downloadDate}) stopped before all its
            files were sent. Choose the same folder to resume it where it stopped.
          </p>
        )}
        {error && (
          <p role="alert" className="sm:col-span-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            {error}
          </p>
        )}
        <div className="sm:col-span-2">
          <Button type="submit" busy={sending !== null}>
            {interrupted ? "Resume the upload" : "Upload the registry"}
          </Button>
        </div>
      </form>
      {sending && (
        <p role="status">
          Sending: {n(Math.round(sending.sent / 1e6))} of {n(Math.round(sending.of / 1e6))} MB
        </p>
      )}
      {upload && <UploadProgress upload={upload} />}
    </div>
  );
}

const FILE_STATUS: Record<string, string> = {
  waiting: "waiting",
  receiving: "sending",
  received: "sent, waiting to be applied",
  refused: "refused",
  applied: "applied",
};

function UploadProgress({ upload }: { upload: RegistryUploadView }) {
  const applied = upload.files.filter((file) => file.status === "applied").length;
  const refused = upload.files.filter((file) => file.status === "refused").length;
  return (
    <div className="space-y-3">
      <p role="status" data-testid="registry-upload-status" className="font-medium">
        Upload {upload.id}: {REGISTRY_UPLOAD_STATUS_LABELS[upload.status]} ({n(applied)} of {n(upload.files.length)}{" "}
        files applied{refused > 0 ? `, ${n(refused)} refused` : ""})
      </p>
      <Table label="Registry files" headers={["Area code", "File", "Status", "Numbers", "Message"]}>
        {upload.files.map((file) => (
          <tr
            key={file.id}
            className="border-t border-line"
            data-testid={`registry-file-${file.areaCode}-${file.kind}`}
          >
            <td className="px-4 py-2 font-medium">{file.areaCode}</td>
            <td className="px-4 py-2">{file.kind === "full" ? "full list" : "change list"}</td>
            <td className="px-4 py-2">{FILE_STATUS[file.status]}</td>
            <td className="px-4 py-2">{file.numbers === null ? "—" : n(file.numbers)}</td>
            <td className="px-4 py-2 whitespace-normal text-red-900">{file.message}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

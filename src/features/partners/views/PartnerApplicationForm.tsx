/** /affnetwork (product rules 34, 44): the long partner form with optional documents. */

import { useMutation } from "@tanstack/react-query";
import { type ReactNode, useRef, useState } from "react";
import { countOf, megabytes } from "../../../domain/units";
import { AppProviders } from "../../../islands/AppProviders";
import { QueryProvider } from "../../../islands/QueryProvider";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Form } from "../../../ui/form";
import { Field, SelectField } from "../../../ui/input";
import { useSchemaForm } from "../../../ui/schema-form";
import { buttonClass } from "../../../ui/styles";
import { toast } from "../../../ui/toast";
import {
  APPLICATION_REVIEW_HOURS,
  DEFAULT_PAYMENT_TERMS,
  DEFAULT_TIME_ZONE,
  DOCUMENT_ACCEPT,
  DOCUMENT_ERRORS,
  looksLikeAllowedDocument,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENTS,
  PAYMENT_TERMS,
  TIME_ZONES,
} from "../partner";
import type { PartnerApplication } from "../schemas/partner";

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-5 border-t border-line pt-6 first:border-t-0 first:pt-0">
      <legend className="text-lg font-bold">{title}</legend>
      {children}
    </fieldset>
  );
}

/** The fields in the order they show. */
const FIELDS = [
  "businessName",
  "businessAddress",
  "city",
  "state",
  "zip",
  "ein",
  "mainContact",
  "contactPhone",
  "contactEmail",
  "paymentTerms",
  "timeZone",
  "numberOfAgents",
  "officeHours",
  "payPerTransfer",
  "didNumber",
  "dailyCallCap",
  "reference1CompanyName",
  "reference1ContactName",
  "reference1Phone",
  "reference2CompanyName",
  "reference2ContactName",
  "reference2Phone",
] as const;
type Values = Record<(typeof FIELDS)[number], string>;

function startingValues(): Values {
  const values = Object.fromEntries(FIELDS.map((name) => [name, ""])) as Values;
  return { ...values, paymentTerms: DEFAULT_PAYMENT_TERMS, timeZone: DEFAULT_TIME_ZONE };
}

function Application() {
  // Plain state checked by the API's own schema, which loads with the first submit (decisions 0016, 0074).
  const form = useSchemaForm({
    initial: startingValues,
    fields: FIELDS,
    load: () => import("../schemas/partner").then((m) => m.partnerApplicationSchema),
  });
  const [documents, setDocuments] = useState<File[]>([]);
  const picker = useRef<HTMLInputElement>(null);

  const submit = useMutation({
    mutationFn: (values: PartnerApplication) => {
      const body = new FormData();
      for (const [key, value] of Object.entries(values)) if (value !== undefined) body.set(key, String(value));
      for (const file of documents) body.append("documents", file);
      // A multipart body (the route reads the form itself), sent as the request's own body.
      return call(api["affnetwork-signup"].$post(undefined, { init: { body } }));
    },
    onSuccess: () =>
      toast({
        title: "Application Submitted",
        description: `We will review your application within ${countOf(APPLICATION_REVIEW_HOURS, "hour")}.`,
        variant: "success",
      }),
    onError: (error) =>
      toast({
        title: "Submission Failed",
        description: errorMessage(error, "Failed to submit application"),
        variant: "destructive",
      }),
  });

  function addDocuments(files: FileList | null) {
    const added: File[] = [];
    for (const file of Array.from(files ?? [])) {
      if (documents.length + added.length >= MAX_DOCUMENTS) {
        toast({
          title: DOCUMENT_ERRORS.tooMany.title,
          description: DOCUMENT_ERRORS.tooMany.message(),
          variant: "destructive",
        });
        break;
      }
      if (file.size > MAX_DOCUMENT_BYTES) {
        toast({
          title: DOCUMENT_ERRORS.tooLarge.title,
          description: DOCUMENT_ERRORS.tooLarge.message(file.name),
          variant: "destructive",
        });
      } else if (!looksLikeAllowedDocument(file)) {
        toast({
          title: DOCUMENT_ERRORS.invalidType.title,
          description: DOCUMENT_ERRORS.invalidType.message(file.name),
          variant: "destructive",
        });
      } else {
        added.push(file);
      }
    }
    setDocuments([...documents, ...added]);
    if (picker.current) picker.current.value = "";
  }

  if (submit.isSuccess) {
    return (
      <Card className="mx-auto max-w-xl text-center sm:p-10">
        <h1 className="text-3xl font-bold">Application Submitted!</h1>
        <p className="mt-3 text-ink-soft">
          Thank you. Our partner team will review your application within {countOf(APPLICATION_REVIEW_HOURS, "hour")}.
        </p>
        <a href="/" className={buttonClass("primary", "md", "mt-8")}>
          Return to Home
        </a>
      </Card>
    );
  }

  const field = form.field;
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-bold tracking-tight">Partner Application</h1>
      <p className="mt-2 text-ink-soft">
        Join our affiliate network of call centers. We review every application within{" "}
        {countOf(APPLICATION_REVIEW_HOURS, "hour")}.
      </p>
      <Card className="mt-6">
        <Form className="space-y-8" onSubmit={form.submit((values) => submit.mutate(values))}>
          <Section title="Business information">
            <Field label="Business name" autoComplete="organization" {...field("businessName")} />
            <Field label="Business address" autoComplete="street-address" {...field("businessAddress")} />
            <div className="grid gap-5 sm:grid-cols-3">
              <Field label="City" autoComplete="address-level2" {...field("city")} />
              <Field label="State" autoComplete="address-level1" {...field("state")} />
              <Field label="ZIP code" autoComplete="postal-code" inputMode="numeric" {...field("zip")} />
            </div>
            <Field
              label="EIN"
              inputMode="numeric"
              hint="Your 9-digit Employer Identification Number"
              {...field("ein")}
            />
          </Section>
          <Section title="Contact">
            <Field label="Main contact" autoComplete="name" {...field("mainContact")} />
            <div className="grid gap-5 sm:grid-cols-2">
              <Field label="Contact phone" type="tel" autoComplete="tel" {...field("contactPhone")} />
              <Field label="Contact email" type="email" autoComplete="email" {...field("contactEmail")} />
            </div>
          </Section>
          <Section title="Business terms">
            <div className="grid gap-5 sm:grid-cols-2">
              <SelectField
                label="Payment terms"
                options={PAYMENT_TERMS.map((v) => ({ value: v, label: v }))}
                {...field("paymentTerms")}
              />
              <SelectField
                label="Time zone"
                options={TIME_ZONES.map((v) => ({ value: v, label: v }))}
                {...field("timeZone")}
              />
              <Field label="Number of agents" type="number" min={1} {...field("numberOfAgents")} />
              <Field label="Office hours" placeholder="e.g. Mon-Fri 9am-6pm" {...field("officeHours")} />
              <Field label="Pay per transfer" placeholder="e.g. $20" {...field("payPerTransfer")} />
              <Field label="DID number" type="tel" {...field("didNumber")} />
              <Field label="Daily call cap" type="number" min={1} {...field("dailyCallCap")} />
            </div>
          </Section>
          <Section title="References (optional)">
            {([1, 2] as const).map((n) => (
              <div key={n} className="grid gap-5 sm:grid-cols-3">
                <Field label={`Reference ${n} company`} {...field(`reference${n}CompanyName`)} />
                <Field label={`Reference ${n} contact`} {...field(`reference${n}ContactName`)} />
                <Field label={`Reference ${n} phone`} type="tel" {...field(`reference${n}Phone`)} />
              </div>
            ))}
          </Section>
          <Section title="Documents (optional)">
            <p className="text-sm text-ink-soft">
              PDF, Word or image files, up to {megabytes(MAX_DOCUMENT_BYTES)} each, at most {MAX_DOCUMENTS} files.
            </p>
            <input
              ref={picker}
              id="partner-documents"
              type="file"
              multiple
              accept={DOCUMENT_ACCEPT}
              className="sr-only"
              onChange={(e) => addDocuments(e.target.files)}
            />
            <label htmlFor="partner-documents" className={`${buttonClass("secondary")} cursor-pointer`}>
              Add documents
            </label>
            {documents.length > 0 && (
              <ul className="space-y-2" aria-label="Documents to upload">
                {documents.map((file, index) => (
                  <li
                    key={`${file.name}-${file.size}-${file.lastModified}`}
                    className="flex items-center justify-between gap-3 rounded-lg border border-line px-3 py-2 text-sm"
                  >
                    <span className="truncate">
                      {file.name} <span className="text-muted">({formatSize(file.size)})</span>
                    </span>
                    <Button variant="ghost" onClick={() => setDocuments(documents.filter((_, i) => i !== index))}>
                      Remove<span className="sr-only"> {file.name}</span>
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </Section>
          <Button type="submit" size="lg" className="w-full" busy={submit.isPending}>
            {submit.isPending ? "Submitting..." : "Submit Application"}
          </Button>
        </Form>
      </Card>
    </div>
  );
}

export default function PartnerApplicationForm() {
  return (
    <QueryProvider>
      <AppProviders>
        <Application />
      </AppProviders>
    </QueryProvider>
  );
}

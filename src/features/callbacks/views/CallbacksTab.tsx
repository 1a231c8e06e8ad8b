/**
 * The callbacks tab (product rule 45, docs/decisions/0059): the admin's call-back or appointment, with its
 * window in the prospect's zone and its consent evidence, placed like a partner's; and below it the latest
 * ones (./CallbacksList.tsx, with each one's consent record: docs/decisions/0063).
 */

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { defaultTimeZone, US_TIME_ZONES } from "../../../domain/time-zones";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Form } from "../../../ui/form";
import { Field, SelectField } from "../../../ui/input";
import { lazyView } from "../../../ui/lazy-view";
import { useSchemaForm } from "../../../ui/schema-form";
import { toast } from "../../../ui/toast";
import { ConsentFields, toIso } from "../../aged-leads/views/index";
import { CONSENT_FIELDS } from "../../consent/index";
import { CALLBACK_KIND_LABELS, type CallbackKind } from "../callbacks";
import type { CallbackOpportunity } from "../schemas/callback-opportunity";

/** The latest call-backs' query (./CallbacksList.tsx): a saved one refreshes it. */
const LIST_KEY = ["/api/admin/callback-opportunities"];
const KIND_OPTIONS = (Object.keys(CALLBACK_KIND_LABELS) as CallbackKind[]).map((kind) => ({
  value: kind,
  label: CALLBACK_KIND_LABELS[kind],
}));
const ZONE_OPTIONS = US_TIME_ZONES.map((zone) => ({ value: zone, label: zone.replace("_", " ") }));
/** The fields in the order they show: a failed save focuses the first one with a message. */
const FIELDS = [
  "name",
  "email",
  "phone",
  "state",
  "price",
  "kind",
  "date",
  "from",
  "to",
  "timeZone",
  ...CONSENT_FIELDS,
] as const;
type Values = Record<(typeof FIELDS)[number], string>;
const DEFAULTS = (): Values => ({
  ...(Object.fromEntries(FIELDS.map((name) => [name, ""])) as Values),
  kind: "callback",
});
/** What the schema reads: the opt-in time, typed in the admin's zone, as an ISO instant. */
const input = (values: Values) => ({ ...values, optInAt: toIso(values.optInAt) });

/** The CSV upload of call-backs (decision 0069): its code (and papaparse) loads when the admin opens it. */
const CallbackCsvUpload = lazy(() => import("./CallbackCsvUpload").then((m) => ({ default: m.CallbackCsvUpload })));

/** Below the form: the latest call-backs, their code loaded as they near the screen (decision 0032). */
const CallbacksList = lazyView(() => import("./CallbacksList").then((m) => m.CallbacksList), { hydrate: "visible" });

export function CallbacksTab() {
  const queryClient = useQueryClient();
  // Plain state checked by the API's own schema, which loads with the first save (decisions 0016, 0079).
  const form = useSchemaForm({
    initial: DEFAULTS,
    fields: FIELDS,
    load: () => import("../schemas/callback-opportunity").then((m) => m.callbackOpportunitySchema),
    input,
  });
  const { kind, state } = form.values;
  const [csvOpen, setCsvOpen] = useState(false);
  const stateCode = typeof state === "string" ? state.trim() : "";
  const save = useMutation({
    mutationFn: (values: CallbackOpportunity) => call(api.admin["callback-opportunities"].$post({ json: values })),
    onSuccess: () => {
      toast({ title: "Success", description: "Callback opportunity uploaded successfully", variant: "success" });
      form.reset(DEFAULTS());
      void queryClient.invalidateQueries({ queryKey: LIST_KEY });
    },
    onError: (error) =>
      toast({
        title: "Error",
        description: errorMessage(error, "Failed to upload callback opportunity"),
        variant: "destructive",
      }),
  });

  return (
    <div className="space-y-6">
      <Card className="space-y-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 className="text-lg font-bold">Upload a CSV of call-backs</h3>
          {!csvOpen && (
            <Button variant="secondary" onClick={() => setCsvOpen(true)}>
              Upload a CSV of call-backs
            </Button>
          )}
        </div>
        {csvOpen && (
          <Suspense fallback={<p className="text-sm text-ink-soft">Loading…</p>}>
            <CallbackCsvUpload />
          </Suspense>
        )}
      </Card>
      <Card>
        <h3 className="text-lg font-bold">Upload a callback opportunity</h3>
        <Form className="mt-4 space-y-5" onSubmit={form.submit((values) => save.mutate(values))}>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Name" {...form.field("name")} />
            <Field label="Email" type="email" {...form.field("email")} />
            <Field label="Phone" type="tel" {...form.field("phone")} />
            <Field label="State" {...form.field("state")} />
            <Field label="Price" type="number" min={0} step="0.01" {...form.field("price")} />
            <SelectField label="Kind" options={KIND_OPTIONS} {...form.field("kind")} />
          </div>
          <fieldset className="space-y-3 rounded-xl border border-line p-4">
            <legend className="px-1 text-sm font-semibold">Window, in the prospect's time</legend>
            <div className="grid gap-5 sm:grid-cols-2">
              <Field label="Date" type="date" {...form.field("date")} />
              <Field label={kind === "appointment" ? "At" : "From"} type="time" {...form.field("from")} />
              {kind !== "appointment" && <Field label="To" type="time" {...form.field("to")} />}
              <SelectField
                label="Prospect's time zone (optional)"
                placeholder={
                  stateCode.length === 2
                    ? `The state's zone (${defaultTimeZone(stateCode).replace("_", " ")})`
                    : "The state's zone"
                }
                options={ZONE_OPTIONS}
                {...form.field("timeZone")}
              />
            </div>
          </fieldset>
          <ConsentFields
            field={form.field}
            note="The buyer sees it with the call-back. Optional, checked like an aged lead's."
          />
          <Button type="submit" busy={save.isPending}>
            {save.isPending ? "Uploading..." : "Upload Callback"}
          </Button>
        </Form>
      </Card>
      <CallbacksList />
    </div>
  );
}

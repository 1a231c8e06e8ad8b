/**
 * The callbacks tab (product rule 45, docs/decisions/0059): the admin's call-back or appointment, with its
 * window in the prospect's zone and its consent evidence, placed like a partner's; and below it the latest
 * ones (./CallbacksList.tsx, with each one's consent record: docs/decisions/0063).
 */
import { lazy, Suspense, useState } from "react";
import { useForm } from "react-hook-form";
import type { CallbackOpportunity, CallbackOpportunityInput } from "../../../domain/schemas/admin-leads";
import { defaultTimeZone, US_TIME_ZONES } from "../../../domain/time-zones";
import { ConsentFields } from "../../../islands/admin/uploads/ConsentFields";
import { api, call, errorMessage } from "../../../lib/api";
import { useMutation, useQueryClient } from "../../../lib/query";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Form, fieldProps, lazyZodResolver } from "../../../ui/form";
import { Field, SelectField } from "../../../ui/input";
import { lazyView } from "../../../ui/lazy-view";
import { toast } from "../../../ui/toast";
import { CALLBACK_KIND_LABELS, type CallbackKind } from "../callbacks";

/** The latest call-backs' query (./CallbacksList.tsx): a saved one refreshes it. */
const LIST_KEY = ["/api/admin/callback-opportunities"];
const KIND_OPTIONS = (Object.keys(CALLBACK_KIND_LABELS) as CallbackKind[]).map((kind) => ({
  value: kind,
  label: CALLBACK_KIND_LABELS[kind],
}));
const ZONE_OPTIONS = US_TIME_ZONES.map((zone) => ({ value: zone, label: zone.replace("_", " ") }));
const DEFAULTS: Partial<CallbackOpportunityInput> = { kind: "callback" };

/** The CSV upload of call-backs (decision 0069): its code (and papaparse) loads when the admin opens it. */
const CallbackCsvUpload = lazy(() => import("./CallbackCsvUpload").then((m) => ({ default: m.CallbackCsvUpload })));

/** Below the form: the latest call-backs, their code loaded as they near the screen (decision 0032). */
const CallbacksList = lazyView(() => import("./CallbacksList").then((m) => m.CallbacksList), { hydrate: "visible" });

export function CallbacksTab() {
  const queryClient = useQueryClient();
  const form = useForm<CallbackOpportunityInput, unknown, CallbackOpportunity>({
    defaultValues: DEFAULTS,
    resolver: lazyZodResolver(() =>
      import("../../../domain/schemas/admin-leads").then((m) => m.callbackOpportunitySchema),
    ),
  });
  const [kind, state] = form.watch(["kind", "state"]);
  const [csvOpen, setCsvOpen] = useState(false);
  const stateCode = typeof state === "string" ? state.trim() : "";
  const save = useMutation({
    mutationFn: (values: CallbackOpportunity) => call(api.admin["callback-opportunities"].$post({ json: values })),
    onSuccess: () => {
      toast({ title: "Success", description: "Callback opportunity uploaded successfully", variant: "success" });
      form.reset(DEFAULTS);
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
        <Form className="mt-4 space-y-5" onSubmit={form.handleSubmit((values) => save.mutate(values))}>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Name" {...fieldProps(form, "name")} />
            <Field label="Email" type="email" {...fieldProps(form, "email")} />
            <Field label="Phone" type="tel" {...fieldProps(form, "phone")} />
            <Field label="State" {...fieldProps(form, "state")} />
            <Field label="Price" type="number" min={0} step="0.01" {...fieldProps(form, "price")} />
            <SelectField label="Kind" options={KIND_OPTIONS} {...fieldProps(form, "kind")} />
          </div>
          <fieldset className="space-y-3 rounded-xl border border-line p-4">
            <legend className="px-1 text-sm font-semibold">Window, in the prospect's time</legend>
            <div className="grid gap-5 sm:grid-cols-2">
              <Field label="Date" type="date" {...fieldProps(form, "date")} />
              <Field label={kind === "appointment" ? "At" : "From"} type="time" {...fieldProps(form, "from")} />
              {kind !== "appointment" && <Field label="To" type="time" {...fieldProps(form, "to")} />}
              <SelectField
                label="Prospect's time zone (optional)"
                placeholder={
                  stateCode.length === 2
                    ? `The state's zone (${defaultTimeZone(stateCode).replace("_", " ")})`
                    : "The state's zone"
                }
                options={ZONE_OPTIONS}
                {...fieldProps(form, "timeZone")}
              />
            </div>
          </fieldset>
          <ConsentFields
            form={form}
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

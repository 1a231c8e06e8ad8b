/**
 * The callbacks tab (product rule 45, docs/decisions/0059): the admin's call-back or appointment, with its
 * window in the prospect's zone and its consent evidence, placed like a partner's; and the latest ones,
 * with their window in the prospect's zone, the order each went to and the whole consent record
 * (./CallbackConsentRecord.tsx, docs/decisions/0063).
 */
import { useForm } from "react-hook-form";
import type { CallbackKind } from "../../../domain/callbacks";
import { formatUsd } from "../../../domain/pricing";
import type { CallbackOpportunity, CallbackOpportunityInput } from "../../../domain/schemas/admin-leads";
import { defaultTimeZone, formatterPerZone, US_TIME_ZONES } from "../../../domain/time-zones";
import { api, call, errorMessage } from "../../../lib/api";
import { useMutation, useQuery, useQueryClient } from "../../../lib/query";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Form, fieldProps, lazyZodResolver } from "../../../ui/form";
import { Field, SelectField } from "../../../ui/input";
import { QueryView } from "../../../ui/query-view";
import { Table } from "../../../ui/table";
import { toast } from "../../../ui/toast";
import { CallbackConsentButton } from "./CallbackConsentRecord";
import { ConsentFields } from "./ConsentFields";

const LIST_KEY = ["/api/admin/callback-opportunities"];

const KIND_LABELS: Record<CallbackKind, string> = { callback: "Call-back", appointment: "Appointment" };
const KIND_OPTIONS = (Object.keys(KIND_LABELS) as CallbackKind[]).map((kind) => ({
  value: kind,
  label: KIND_LABELS[kind],
}));
const ZONE_OPTIONS = US_TIME_ZONES.map((zone) => ({ value: zone, label: zone.replace("_", " ") }));
const DEFAULTS: Partial<CallbackOpportunityInput> = { kind: "callback" };

const startFormat = formatterPerZone({ month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
const endFormat = formatterPerZone({ hour: "numeric", minute: "2-digit", timeZoneName: "short" });
const atFormat = formatterPerZone({
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "short",
});

/** A window as the prospect reads it: "Dec 1, 9:00 AM – 11:00 AM CST", or an appointment's "Dec 1, 2:30 PM MST". */
function windowText(row: {
  kind: CallbackKind;
  timeZone: string;
  windowStart: string | null;
  windowEnd: string | null;
}) {
  if (!row.windowStart || !row.windowEnd) return "—";
  const start = Date.parse(row.windowStart);
  if (row.kind === "appointment") return atFormat(row.timeZone).format(start);
  return `${startFormat(row.timeZone).format(start)} – ${endFormat(row.timeZone).format(Date.parse(row.windowEnd))}`;
}

/** Delivered (to which order, short), waiting for a paid order, or no longer placeable. */
function deliveryText(row: { orderId: string | null; windowEnd: string | null }) {
  if (row.orderId) return `Delivered · order ${row.orderId.slice(0, 8)}`;
  if (!row.windowEnd) return "Not placed (no window)";
  return Date.parse(row.windowEnd) > Date.now() ? "Waiting" : "Not delivered (window passed)";
}

export function CallbacksTab() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: LIST_KEY,
    queryFn: () => call(api.admin["callback-opportunities"].$get()),
  });
  const form = useForm<CallbackOpportunityInput, unknown, CallbackOpportunity>({
    defaultValues: DEFAULTS,
    resolver: lazyZodResolver(() =>
      import("../../../domain/schemas/admin-leads").then((m) => m.callbackOpportunitySchema),
    ),
  });
  const [kind, state] = form.watch(["kind", "state"]);
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
      <section aria-labelledby="callbacks-list" className="space-y-3">
        <h3 id="callbacks-list" className="text-lg font-bold">
          Latest callback opportunities
        </h3>
        <QueryView
          query={list}
          loading="Loading..."
          failed="Could not load the opportunities."
          empty="No callback opportunities yet."
        >
          {(rows) => (
            <Table
              label="Latest callback opportunities"
              headers={[
                "Name",
                "Email",
                "Phone",
                "State",
                "Price",
                "Kind",
                "Window (prospect's time)",
                "Delivery",
                "Consent",
              ]}
            >
              {rows.map((row) => (
                <tr key={row.id} className="border-t border-line">
                  <td className="px-4 py-2 font-medium">{row.name}</td>
                  <td className="px-4 py-2">{row.email}</td>
                  <td className="px-4 py-2">{row.phone}</td>
                  <td className="px-4 py-2">{row.state}</td>
                  <td className="px-4 py-2">{formatUsd(row.priceCents)}</td>
                  <td className="px-4 py-2">{KIND_LABELS[row.kind]}</td>
                  <td className="px-4 py-2">{windowText(row)}</td>
                  <td className="px-4 py-2" title={row.orderId ?? undefined}>
                    {deliveryText(row)}
                  </td>
                  <td className="px-4 py-2">
                    <CallbackConsentButton id={row.id} label={`${row.name} (${row.state})`} />
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </QueryView>
      </section>
    </div>
  );
}

/**
 * The delivery-settings form: the setup page and the /admin-orders dialog both use it. Plain React state
 * checked by the API's own schema (`useSchemaForm`, docs/decisions/0079): /delivery-setup has no room for a
 * form library beside TanStack Query (docs/decisions/0074).
 */
import type { ReactNode } from "react";
import { Button } from "../../../ui/button";
import { Form } from "../../../ui/form";
import { Field, SelectField } from "../../../ui/input";
import { useSchemaForm } from "../../../ui/schema-form";
import { MAX_TRANSFERS_PER_DAY, TIME_ZONE_OPTIONS } from "../delivery-setup";
import type { DeliverySettingsInput, DeliverySettingsValues } from "../schemas/delivery-setup";
import { DeliveryLimitFields } from "./DeliveryLimitFields";

interface Props {
  defaultValues: DeliverySettingsInput;
  submitLabel: string;
  busy: boolean;
  onSubmit: (values: DeliverySettingsValues) => void;
  /** Fields shown before the settings (the setup page's new-account fields). */
  children?: ReactNode;
}

/** The fields in the order they show: a failed save focuses the first one with a message. */
const FIELDS = [
  "transferPhone",
  "states",
  "hoursStart",
  "hoursEnd",
  "timeZone",
  "perDayCap",
  "days",
  "closedFrom",
  "closedUntil",
  "perHourCap",
  "maxConcurrent",
] as const;

export function DeliverySettingsForm({ defaultValues, submitLabel, busy, onSubmit, children }: Props) {
  // The schema (and zod) load with the first submit (decision 0016).
  const form = useSchemaForm({
    initial: () => defaultValues,
    fields: FIELDS,
    load: () => import("../schemas/delivery-setup").then((m) => m.deliverySettingsInputSchema),
  });
  return (
    <Form onSubmit={form.submit((values: DeliverySettingsValues) => onSubmit(values))} className="space-y-4">
      {children}
      <Field
        label="Transfer phone number"
        type="tel"
        autoComplete="tel"
        hint="The US number partners' calls ring."
        {...form.field("transferPhone")}
      />
      <Field
        label="States"
        hint="Two-letter codes separated by commas, e.g. TX, FL. Leave empty to take callers from every state."
        {...form.field("states")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Transfers from" type="time" {...form.field("hoursStart")} />
        <Field label="Transfers until" type="time" {...form.field("hoursEnd")} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="Time zone" options={TIME_ZONE_OPTIONS} {...form.field("timeZone")} />
        <Field
          label="Transfers per day"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_TRANSFERS_PER_DAY}
          {...form.field("perDayCap")}
        />
      </div>
      <DeliveryLimitFields wiring={{ field: form.field, day: (day) => form.check("days", day) }} />
      <Button type="submit" size="lg" className="w-full" busy={busy}>
        {submitLabel}
      </Button>
    </Form>
  );
}

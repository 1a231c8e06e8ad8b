/** The delivery-settings form: the setup page and the /admin-orders dialog both use it. */
import { type ReactNode, useId } from "react";
import { useForm } from "react-hook-form";
import {
  type DeliverySettingsInput,
  type DeliverySettingsValues,
  LIMIT_HINTS,
  MAX_CONCURRENT_TRANSFERS,
  MAX_TRANSFERS_PER_DAY,
  MAX_TRANSFERS_PER_HOUR,
  TIME_ZONE_LABELS,
  WEEKDAY_NAMES,
} from "../../domain/delivery-setup";
import { US_TIME_ZONES } from "../../domain/time-zones";
import { Button } from "../../ui/button";
import { Form, fieldProps, lazyZodResolver } from "../../ui/form";
import { useAwaitingHydration } from "../../ui/hydrated";
import { Field, SelectField } from "../../ui/input";
import { labelClass } from "../../ui/styles";

const ZONE_OPTIONS = US_TIME_ZONES.map((zone) => ({ value: zone, label: TIME_ZONE_LABELS[zone] }));

interface Props {
  defaultValues: DeliverySettingsInput;
  submitLabel: string;
  busy: boolean;
  onSubmit: (values: DeliverySettingsValues) => void;
  /** Fields shown before the settings (the setup page's new-account fields). */
  children?: ReactNode;
}

export function DeliverySettingsForm({ defaultValues, submitLabel, busy, onSubmit, children }: Props) {
  const form = useForm<DeliverySettingsInput, unknown, DeliverySettingsValues>({
    // The schema (and zod) load with the first validation (decision 0016).
    resolver: lazyZodResolver(() =>
      import("../../domain/schemas/delivery-setup").then((m) => m.deliverySettingsInputSchema),
    ),
    defaultValues,
  });
  const id = useId();
  const waiting = useAwaitingHydration();
  return (
    <Form onSubmit={form.handleSubmit(onSubmit)} className="space-y-4">
      {children}
      <Field
        label="Transfer phone number"
        type="tel"
        autoComplete="tel"
        hint="The US number partners' calls ring."
        {...fieldProps(form, "transferPhone")}
      />
      <Field
        label="States"
        hint="Two-letter codes separated by commas, e.g. TX, FL. Leave empty to take callers from every state."
        {...fieldProps(form, "states")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Transfers from" type="time" {...fieldProps(form, "hoursStart")} />
        <Field label="Transfers until" type="time" {...fieldProps(form, "hoursEnd")} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="Time zone" options={ZONE_OPTIONS} {...fieldProps(form, "timeZone")} />
        <Field
          label="Transfers per day"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_TRANSFERS_PER_DAY}
          {...fieldProps(form, "perDayCap")}
        />
      </div>
      {/* The order's own limits (docs/decisions/0068), each optional and explained in one sentence. */}
      <fieldset aria-describedby={`${id}-days`}>
        {/* The checkboxes only offer Sunday to Saturday: the form cannot send a bad day. */}
        <legend className={labelClass}>Days</legend>
        <div className="flex flex-wrap gap-3">
          {WEEKDAY_NAMES.map((name, day) => (
            <label key={name} className="flex items-center gap-1.5 text-sm">
              <input type="checkbox" value={String(day)} disabled={waiting} {...form.register("days")} />
              {name}
            </label>
          ))}
        </div>
        <p id={`${id}-days`} className="mt-1.5 text-sm text-muted">
          {LIMIT_HINTS.days}
        </p>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Closed from" type="date" hint={LIMIT_HINTS.closure} {...fieldProps(form, "closedFrom")} />
        <Field label="Closed until" type="date" {...fieldProps(form, "closedUntil")} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Transfers per hour"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_TRANSFERS_PER_HOUR}
          hint={LIMIT_HINTS.perHourCap}
          {...fieldProps(form, "perHourCap")}
        />
        <Field
          label="Calls at once"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_CONCURRENT_TRANSFERS}
          hint={LIMIT_HINTS.maxConcurrent}
          {...fieldProps(form, "maxConcurrent")}
        />
      </div>
      <Button type="submit" size="lg" className="w-full" busy={busy}>
        {submitLabel}
      </Button>
    </Form>
  );
}

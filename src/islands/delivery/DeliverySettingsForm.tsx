/** The delivery-settings form: the setup page and the /admin-orders dialog both use it. */
import type { ReactNode } from "react";
import { useForm } from "react-hook-form";
import {
  type DeliverySettingsInput,
  type DeliverySettingsValues,
  MAX_TRANSFERS_PER_DAY,
  TIME_ZONE_OPTIONS,
} from "../../domain/delivery-setup";
import { Button } from "../../ui/button";
import { Form, fieldProps, lazyZodResolver } from "../../ui/form";
import { Field, SelectField } from "../../ui/input";
import { DeliveryLimitFields } from "./DeliveryLimitFields";

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
        <SelectField label="Time zone" options={TIME_ZONE_OPTIONS} {...fieldProps(form, "timeZone")} />
        <Field
          label="Transfers per day"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_TRANSFERS_PER_DAY}
          {...fieldProps(form, "perDayCap")}
        />
      </div>
      <DeliveryLimitFields form={form} />
      <Button type="submit" size="lg" className="w-full" busy={busy}>
        {submitLabel}
      </Button>
    </Form>
  );
}

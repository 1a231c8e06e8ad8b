/**
 * Field blocks that more than one form asks the same way: the live-transfer order fields (the /survey and
 * /ringcloud wizards and the dashboard's Buy Call Transfers form), the phone and the state. Each block
 * takes the form and, where the forms name a field differently, the field's name in that form.
 */
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { US_STATES } from "../domain/us-states";
import { fieldProps } from "./form";
import { Field, SelectField } from "./input";

// biome-ignore lint/suspicious/noExplicitAny: a block works with any form's context and output types
type AnyForm<Values extends FieldValues> = UseFormReturn<Values, any, any>;

const TRANSFER_HOURS_PLACEHOLDER = "e.g. Mon-Fri 9am-5pm EST";

export interface LiveTransferNames<Values extends FieldValues> {
  total: Path<Values>;
  perDay: Path<Values>;
  hours: Path<Values>;
  /** Asked only where the order names the number transfers ring (not the survey, which asks it later). */
  phone?: Path<Values>;
}

/** How many transfers, how many a day, in which hours, and (where asked) to which number. */
export function LiveTransferFields<Values extends FieldValues>({
  form,
  names,
  perDayLabel,
}: {
  form: AnyForm<Values>;
  names: LiveTransferNames<Values>;
  /** The spec's words for the daily count differ by form: 'Calls per day' or 'Transfers per day'. */
  perDayLabel: string;
}) {
  return (
    <div className={`grid gap-5 ${names.phone ? "sm:grid-cols-2" : "sm:grid-cols-3"}`}>
      <Field
        label="Total transfers"
        type="number"
        min={1}
        {...fieldProps(form, names.total, { valueAsNumber: true })}
      />
      <Field label={perDayLabel} type="number" min={1} {...fieldProps(form, names.perDay, { valueAsNumber: true })} />
      <Field label="Transfer hours" placeholder={TRANSFER_HOURS_PLACEHOLDER} {...fieldProps(form, names.hours)} />
      {names.phone && <Field label="Transfer phone" type="tel" {...fieldProps(form, names.phone)} />}
    </div>
  );
}

/** The buyer's own phone number. */
export function PhoneField<Values extends FieldValues>({ form, name }: { form: AnyForm<Values>; name: Path<Values> }) {
  return <Field label="Phone" type="tel" autoComplete="tel" {...fieldProps(form, name)} />;
}

/** A US state, chosen from the list. */
export function StateField<Values extends FieldValues>({ form, name }: { form: AnyForm<Values>; name: Path<Values> }) {
  return (
    <SelectField
      label="State"
      placeholder="Select your state"
      options={US_STATES.map(([value, label]) => ({ value, label }))}
      {...fieldProps(form, name)}
    />
  );
}

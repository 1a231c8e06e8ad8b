/**
 * An order's own limits (docs/decisions/0068), each optional and explained in one sentence: the delivery
 * settings form and the dashboard's order form ask them the same way (fields days, closedFrom,
 * closedUntil, perHourCap, maxConcurrent; their schema is src/domain/schemas/delivery-limits.ts).
 */
import { useId } from "react";
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import {
  LIMIT_HINTS,
  MAX_CONCURRENT_TRANSFERS,
  MAX_TRANSFERS_PER_HOUR,
  WEEKDAY_NAMES,
} from "../../domain/delivery-limits";
import { fieldProps } from "../../ui/form";
import { useAwaitingHydration } from "../../ui/hydrated";
import { Field } from "../../ui/input";
import { labelClass } from "../../ui/styles";

// biome-ignore lint/suspicious/noExplicitAny: the block works with any form that has the limit fields
type AnyForm<Values extends FieldValues> = UseFormReturn<Values, any, any>;

export function DeliveryLimitFields<Values extends FieldValues>({ form }: { form: AnyForm<Values> }) {
  const id = useId();
  const waiting = useAwaitingHydration();
  const name = (field: string) => field as Path<Values>;
  return (
    <>
      <fieldset aria-describedby={`${id}-days`}>
        {/* The checkboxes only offer Sunday to Saturday: the form cannot send a bad day. */}
        <legend className={labelClass}>Days</legend>
        <div className="flex flex-wrap gap-3">
          {WEEKDAY_NAMES.map((weekday, day) => (
            <label key={weekday} className="flex items-center gap-1.5 text-sm">
              <input type="checkbox" value={String(day)} disabled={waiting} {...form.register(name("days"))} />
              {weekday}
            </label>
          ))}
        </div>
        <p id={`${id}-days`} className="mt-1.5 text-sm text-muted">
          {LIMIT_HINTS.days}
        </p>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Closed from" type="date" hint={LIMIT_HINTS.closure} {...fieldProps(form, name("closedFrom"))} />
        <Field label="Closed until" type="date" {...fieldProps(form, name("closedUntil"))} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Transfers per hour"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_TRANSFERS_PER_HOUR}
          hint={LIMIT_HINTS.perHourCap}
          {...fieldProps(form, name("perHourCap"))}
        />
        <Field
          label="Calls at once"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_CONCURRENT_TRANSFERS}
          hint={LIMIT_HINTS.maxConcurrent}
          {...fieldProps(form, name("maxConcurrent"))}
        />
      </div>
    </>
  );
}

/**
 * An order's own limits (docs/decisions/0068), each optional and explained in one sentence: the delivery
 * settings form and the dashboard's order form ask them the same way (fields days, closedFrom,
 * closedUntil, perHourCap, maxConcurrent; their schema is src/features/transfers/schemas/delivery-limits.ts). Each form
 * hands in its fields' wiring: the order form's react-hook-form, the delivery settings' `useSchemaForm`
 * (docs/decisions/0079).
 */
import { type InputHTMLAttributes, type Ref, useId } from "react";
import { useAwaitingHydration } from "../../../ui/hydrated";
import { Field, type FieldProps } from "../../../ui/input";
import { labelClass } from "../../../ui/styles";
import { LIMIT_HINTS, MAX_CONCURRENT_TRANSFERS, MAX_TRANSFERS_PER_HOUR, WEEKDAY_NAMES } from "../delivery-limits";

type LimitField = "closedFrom" | "closedUntil" | "perHourCap" | "maxConcurrent";

export interface LimitFieldsWiring {
  /** A text field's wiring and message, spread on its Field. */
  field: (name: LimitField) => Omit<FieldProps, "label"> & { ref?: Ref<HTMLInputElement> };
  /** A weekday checkbox's wiring ("0" = Sunday), its `value` included. */
  day: (day: string) => InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
}

export function DeliveryLimitFields({ wiring }: { wiring: LimitFieldsWiring }) {
  const id = useId();
  const waiting = useAwaitingHydration();
  return (
    <>
      <fieldset aria-describedby={`${id}-days`}>
        {/* The checkboxes only offer Sunday to Saturday: the form cannot send a bad day. */}
        <legend className={labelClass}>Days</legend>
        <div className="flex flex-wrap gap-3">
          {WEEKDAY_NAMES.map((weekday, day) => (
            <label key={weekday} className="flex items-center gap-1.5 text-sm">
              <input type="checkbox" disabled={waiting} {...wiring.day(String(day))} />
              {weekday}
            </label>
          ))}
        </div>
        <p id={`${id}-days`} className="mt-1.5 text-sm text-muted">
          {LIMIT_HINTS.days}
        </p>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Closed from" type="date" hint={LIMIT_HINTS.closure} {...wiring.field("closedFrom")} />
        <Field label="Closed until" type="date" {...wiring.field("closedUntil")} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Transfers per hour"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_TRANSFERS_PER_HOUR}
          hint={LIMIT_HINTS.perHourCap}
          {...wiring.field("perHourCap")}
        />
        <Field
          label="Calls at once"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_CONCURRENT_TRANSFERS}
          hint={LIMIT_HINTS.maxConcurrent}
          {...wiring.field("maxConcurrent")}
        />
      </div>
    </>
  );
}

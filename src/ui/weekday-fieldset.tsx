import { type InputHTMLAttributes, type Ref, useId } from "react";
import { WEEKDAY_NAMES } from "../domain/delivery-limits";
import { useAwaitingHydration } from "./hydrated";
import { fieldErrorClass, labelClass } from "./styles";

/** One day's checkbox wiring: a form library's registration, or `checked` and `onChange`. */
type WeekdayCheckbox = InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };

interface Props {
  legend: string;
  /** One sentence under the days. */
  hint?: string;
  error?: string | undefined;
  /** The checkbox of `day` (0 = Sunday); each one's value is the day as text. */
  checkbox: (day: number) => WeekdayCheckbox;
}

/**
 * Sunday to Saturday as checkboxes in a labelled group, with its hint and error wired up for assistive
 * technology: an order's limits and an agent's working days ask them the same way. It knows no form
 * library, so the agents' form (plain state) shares it with the react-hook-form delivery forms without
 * loading that library (decision 0032). Only Sunday to Saturday are offered: a form cannot send a bad day.
 */
export function WeekdayFieldset({ legend, hint, error, checkbox }: Props) {
  const id = useId();
  const waiting = useAwaitingHydration();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <fieldset aria-describedby={described || undefined}>
      <legend className={labelClass}>{legend}</legend>
      <div className="flex flex-wrap gap-3">
        {WEEKDAY_NAMES.map((weekday, day) => (
          <label key={weekday} className="flex items-center gap-1.5 text-sm">
            <input type="checkbox" value={String(day)} disabled={waiting} {...checkbox(day)} />
            {weekday}
          </label>
        ))}
      </div>
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-sm text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={fieldErrorClass} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

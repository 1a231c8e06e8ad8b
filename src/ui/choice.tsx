import { forwardRef, type InputHTMLAttributes, type ReactNode, useId } from "react";
import { fieldErrorClass } from "./styles";

interface ChoiceOption {
  value: string;
  label: ReactNode;
  description?: ReactNode;
}

interface ChoiceGroupProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "type"> {
  legend: string;
  options: readonly ChoiceOption[];
  error?: string | undefined;
  columns?: 2 | 3 | 4;
}

/** A radio group drawn as cards (lead types, roles, age ranges). Spread react-hook-form's register() on it. */
export const ChoiceGroup = forwardRef<HTMLInputElement, ChoiceGroupProps>(function ChoiceGroup(
  { legend, options, error, columns = 3, ...input },
  ref,
) {
  const id = useId();
  const grid = { 2: "sm:grid-cols-2", 3: "sm:grid-cols-3", 4: "sm:grid-cols-4" }[columns];
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? true : undefined}>
      <legend className="mb-2 text-sm font-medium text-ink">{legend}</legend>
      <div className={`grid gap-3 ${grid}`}>
        {options.map((option) => (
          <label
            key={option.value}
            className="flex cursor-pointer items-start gap-3 rounded-xl border border-line bg-white p-4 transition hover:border-brand-600 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-600"
          >
            <input ref={ref} type="radio" value={option.value} className="mt-1 accent-brand-600" {...input} />
            <span>
              <span className="block font-semibold text-ink">{option.label}</span>
              {option.description && <span className="mt-0.5 block text-sm text-ink-soft">{option.description}</span>}
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className={fieldErrorClass} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
});

import { forwardRef, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from "react";
import { useAwaitingHydration } from "./hydrated";
import { fieldErrorClass, inputClass, labelClass } from "./styles";

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** Rendered inside the field's box, after the input (e.g. a show/hide toggle). */
  trailing?: ReactNode;
}

/**
 * A labelled input with its hint and error wired up for assistive technology. In an island it is disabled in
 * the server's HTML until React has hydrated it, so nothing typed before then is lost (decision 0009).
 */
export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field(
  { label, error, hint, trailing, id, className = "", disabled, ...rest },
  ref,
) {
  const waiting = useAwaitingHydration();
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  return (
    <div>
      <label htmlFor={inputId} className={labelClass}>
        {label}
      </label>
      <div className="relative">
        <input
          ref={ref}
          id={inputId}
          className={`${inputClass} ${trailing ? "pr-16" : ""} ${className}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
          disabled={disabled || waiting}
          {...rest}
        />
        {trailing && <div className="absolute inset-y-0 right-2 flex items-center">{trailing}</div>}
      </div>
      {hint && (
        <p id={hintId} className="mt-1.5 text-sm text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className={fieldErrorClass} role="alert">
          {error}
        </p>
      )}
    </div>
  );
});

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string | undefined;
  options: readonly { value: string; label: string }[];
  placeholder?: string;
}

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, error, options, placeholder, id, disabled, ...rest },
  ref,
) {
  const waiting = useAwaitingHydration();
  const generatedId = useId();
  const selectId = id ?? generatedId;
  return (
    <div>
      <label htmlFor={selectId} className={labelClass}>
        {label}
      </label>
      <select
        ref={ref}
        id={selectId}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${selectId}-error` : undefined}
        disabled={disabled || waiting}
        {...rest}
      >
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error && (
        <p id={`${selectId}-error`} className={fieldErrorClass} role="alert">
          {error}
        </p>
      )}
    </div>
  );
});

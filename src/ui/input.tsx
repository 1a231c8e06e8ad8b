import { forwardRef, type InputHTMLAttributes, type ReactNode, useId } from "react";
import { fieldErrorClass, inputClass, labelClass } from "./styles";

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  /** Rendered inside the field's box, after the input (e.g. a show/hide toggle). */
  trailing?: ReactNode;
}

/** A labelled input with its hint and error wired up for assistive technology. */
export const Field = forwardRef<HTMLInputElement, FieldProps>(function Field(
  { label, error, hint, trailing, id, className = "", ...rest },
  ref,
) {
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

import { type FormHTMLAttributes, useEffect, useRef, useState } from "react";
import { type FieldValues, get, type Path, type RegisterOptions, type UseFormReturn } from "react-hook-form";

/**
 * Every island form. Until React has hydrated, its fields are disabled, so a server-rendered form can
 * never be submitted natively (which would put what was typed into a URL); `method="post"` is the
 * second guard. Validation messages come from the shared zod schemas, not the browser.
 */
export function Form({ children, className, ...rest }: FormHTMLAttributes<HTMLFormElement>) {
  const [hydrated, setHydrated] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => setHydrated(true), []);
  // `autoFocus` cannot take while the fieldset is disabled: the field marked `data-autofocus` gets focus once enabled.
  useEffect(() => {
    if (hydrated) form.current?.querySelector<HTMLElement>("[data-autofocus]")?.focus();
  }, [hydrated]);
  return (
    <form ref={form} method="post" noValidate data-hydrated={hydrated || undefined} {...rest}>
      <fieldset disabled={!hydrated} className={`min-w-0 ${className ?? ""}`}>
        {children}
      </fieldset>
    </form>
  );
}

/** A field's react-hook-form wiring and its error message, for spreading on a Field or SelectField. */
export function fieldProps<Values extends FieldValues, Context, Output>(
  form: UseFormReturn<Values, Context, Output>,
  name: Path<Values>,
  options?: RegisterOptions<Values, Path<Values>>,
) {
  const message = (get(form.formState.errors, name) as { message?: unknown } | undefined)?.message;
  return { error: typeof message === "string" ? message : undefined, ...form.register(name, options) };
}

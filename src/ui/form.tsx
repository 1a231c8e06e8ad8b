import { type FormHTMLAttributes, useEffect, useRef, useState } from "react";
import type { FieldValues, Path, RegisterOptions, Resolver, UseFormReturn } from "react-hook-form";
import type { z } from "zod";

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

/**
 * A field's react-hook-form wiring and its error message, for spreading on a Field or SelectField. It uses
 * only the form's own methods: this module imports react-hook-form for types, so a page whose forms have no
 * `useForm` (the partner portal) does not load the library (decision 0032).
 */
export function fieldProps<Values extends FieldValues, Context, Output>(
  form: UseFormReturn<Values, Context, Output>,
  name: Path<Values>,
  options?: RegisterOptions<Values, Path<Values>>,
) {
  const message = form.getFieldState(name, form.formState).error?.message;
  return { error: typeof message === "string" ? message : undefined, ...form.register(name, options) };
}

/**
 * A zod resolver whose schema (and zod itself) loads on the first validation, not with the page
 * (decision 0016): forms validate when submitted, and a page's first load has no room for zod.
 * `load` is a dynamic import of the shared schema, e.g. `() => import("…/schemas/survey").then((m) => m.x)`.
 */
export function lazyZodResolver<Schema extends z.ZodType<FieldValues, FieldValues>>(
  load: () => Promise<Schema>,
): Resolver<z.input<Schema>, unknown, z.output<Schema>> {
  let resolver: Promise<Resolver<z.input<Schema>, unknown, z.output<Schema>>> | undefined;
  return async (values, context, options) => {
    resolver ??= Promise.all([import("@hookform/resolvers/zod"), load()]).then(
      ([{ zodResolver }, schema]) =>
        zodResolver(schema as never) as unknown as Resolver<z.input<Schema>, unknown, z.output<Schema>>,
    );
    return (await resolver)(values, context, options);
  };
}

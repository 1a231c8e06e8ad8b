import { type FormHTMLAttributes, useEffect, useState } from "react";

/**
 * Every island form. Until React has hydrated, its fields are disabled, so a server-rendered form can
 * never be submitted natively (which would put what was typed into a URL); `method="post"` is the
 * second guard. Validation messages come from the shared zod schemas, not the browser.
 */
export function Form({ children, className, ...rest }: FormHTMLAttributes<HTMLFormElement>) {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <form method="post" noValidate data-hydrated={hydrated || undefined} {...rest}>
      <fieldset disabled={!hydrated} className={`min-w-0 ${className ?? ""}`}>
        {children}
      </fieldset>
    </form>
  );
}

/**
 * A form's values and messages in plain React state, checked by the API's own zod schema (decision 0074;
 * the agents' form of decision 0078 works the same way by hand). The schema, and zod with it, loads with the
 * first submit, not with the page (decision 0016). On a failed submit each field shows the first message of
 * its own and focus goes to the first field with one, in the order the fields show; after a submit was
 * tried, each change checks its own field again. Pages that use it load no form library.
 */
import { type ChangeEvent, type FormEvent, useRef, useState } from "react";
import type { z } from "zod";

type Issues = readonly { path: readonly PropertyKey[]; message: string }[];

/** Each listed field's first message of a failed parse. */
export function firstMessages<Name extends string>(
  issues: Issues,
  fields: readonly Name[],
): Partial<Record<Name, string>> {
  const errors: Partial<Record<Name, string>> = {};
  for (const issue of issues) {
    const field = fields.find((name) => name === issue.path[0]);
    if (field) errors[field] ??= issue.message;
  }
  return errors;
}

interface SchemaFormOptions<Values, Schema extends z.ZodType> {
  initial: () => Values;
  /** The fields in the order they show (a failed submit focuses the first one with a message). */
  fields: readonly (keyof Values & string)[];
  /** A dynamic import of the shared schema, e.g. `() => import("…/schemas/returns").then((m) => m.x)`. */
  load: () => Promise<Schema>;
  /** What the schema reads, when it is not the values as they are. */
  input?: (values: Values) => unknown;
}

export function useSchemaForm<Values extends Record<string, unknown>, Schema extends z.ZodType>({
  initial,
  fields,
  load,
  input = (values) => values,
}: SchemaFormOptions<Values, Schema>) {
  type Name = keyof Values & string;
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Name, string>>>({});
  // Set by the first submit: from then on each change checks its own field again.
  const schema = useRef<Schema | null>(null);

  const change = (patch: Partial<Values>, field: Name) => {
    const next = { ...values, ...patch };
    setValues(next);
    if (!schema.current) return;
    const parsed = schema.current.safeParse(input(next));
    const message = parsed.success ? undefined : firstMessages(parsed.error.issues, fields)[field];
    setErrors((current) => ({ ...current, [field]: message }));
  };

  return {
    values,
    errors,
    change,
    /** A text input's or select's wiring, for spreading on a Field or SelectField. */
    field: (name: Name) => ({
      name,
      value: String(values[name] ?? ""),
      error: errors[name],
      onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
        change({ [name]: event.target.value } as Partial<Values>, name),
    }),
    /**
     * One checkbox of a group whose field holds the checked values as text (weekdays "0"-"6"), kept in
     * ascending order as the boxes show them, as a form library's checkbox group sends them.
     */
    check: (name: Name, value: string) => {
      const checked = (values[name] as readonly string[] | undefined) ?? [];
      return {
        name,
        value,
        checked: checked.includes(value),
        onChange: (event: ChangeEvent<HTMLInputElement>) => {
          const next = checked.filter((item) => item !== value);
          if (event.target.checked) next.push(value);
          change({ [name]: next.sort() } as Partial<Values>, name);
        },
      };
    },
    /** Back to the starting values, with no messages and no checking on change (after a successful send). */
    reset: (next: Values) => {
      setValues(next);
      setErrors({});
      schema.current = null;
    },
    /** The form's onSubmit: `onValid` gets the schema's output when every field passes. */
    submit: (onValid: (output: z.output<Schema>) => void) => (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const form = event.currentTarget;
      void (async () => {
        schema.current ??= await load();
        const parsed = schema.current.safeParse(input(values));
        if (parsed.success) {
          setErrors({});
          onValid(parsed.data);
          return;
        }
        const found = firstMessages(parsed.error.issues, fields);
        setErrors(found);
        const first = fields.find((name) => found[name]);
        if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      })();
    },
  };
}

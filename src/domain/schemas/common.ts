/** Field builders that give the spec's message whether a value is missing, of the wrong type or too short. */
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from "../email";
import { z } from "./zod";

/** A trimmed string of at least `min` characters (default 1); one message for every failure but a too-long one. */
export function requiredString(message: string, min = 1, max = 500, tooLong?: string) {
  return z.string({ error: message }).trim().min(min, message).max(max, tooLong);
}

export function emailAddress(message: string) {
  return z
    .string({ error: message })
    .trim()
    .max(EMAIL_MAX_LENGTH)
    .pipe(z.email({ pattern: EMAIL_PATTERN, error: message }));
}

/**
 * A number as forms and callers send it: blank, null or NaN mean "not given" (undefined), a numeric
 * string becomes its number, anything else is left for the schema to refuse.
 */
export function numberFromInput(value: unknown): unknown {
  if (value === "" || value === null || (typeof value === "number" && Number.isNaN(value))) return undefined;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return value;
}

/** Blank text (empty or only spaces) and null mean "not given": undefined, for an optional field. */
export const blankAsMissing = (value: unknown): unknown =>
  value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

/** `?page=` of a server-paged list (from 1): the query every paged list extends. */
export const pageQuerySchema = z.object({
  page: z.coerce
    .number({ error: "Page must be a whole number" })
    .int("Page must be a whole number")
    .min(1, "Page must be a whole number")
    .max(100_000, "Page must be a whole number")
    .default(1),
});

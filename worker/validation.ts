/**
 * Request validation with the shared zod schemas (@hono/zod-validator). A failure answers 400 with the
 * schema's first message as `message` (the spec's wording) and every field's message under `errors`.
 */
import { zValidator } from "@hono/zod-validator";
import type { Context, ValidationTargets } from "hono";
import type { z } from "zod";

/** The 400 answer for a failed schema: the first message, and every field's message under `errors`. */
export function validationFailure(c: Context, error: { issues: readonly z.core.$ZodIssue[] }) {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.join(".") || "body";
    errors[field] ??= issue.message;
  }
  return c.json({ message: error.issues[0]?.message ?? "Invalid request", errors }, 400);
}

export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result, c) => {
    if (result.success) return;
    return validationFailure(c, result.error);
  });
}

export const validateJson = <Schema extends z.ZodType>(schema: Schema) => validate("json", schema);

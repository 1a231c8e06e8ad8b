/**
 * Request validation with the shared zod schemas (@hono/zod-validator). A failure answers 400 with the
 * schema's first message as `message` (the spec's wording) and every field's message under `errors`.
 */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";

export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result, c) => {
    if (result.success) return;
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const field = issue.path.join(".") || "body";
      errors[field] ??= issue.message;
    }
    return c.json({ message: result.error.issues[0]?.message ?? "Invalid request", errors }, 400);
  });
}

export const validateJson = <Schema extends z.ZodType>(schema: Schema) => validate("json", schema);

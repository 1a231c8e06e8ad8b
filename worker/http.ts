import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * Every error the API gives is `{ message }` a person can read (product rule 33). Generic in the status so that the
 * typed client (decision 0019) files the answer under its own status code, not under every code.
 */
export function errorJson<Status extends ContentfulStatusCode>(c: Context, status: Status, message: string) {
  return c.json({ message }, status);
}

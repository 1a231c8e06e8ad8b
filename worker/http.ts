import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/** Every error the API gives is `{ message }` a person can read (D11). */
export function errorJson(c: Context, status: ContentfulStatusCode, message: string) {
  return c.json({ message }, status);
}

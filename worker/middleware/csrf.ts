/**
 * Product rule 33: state-changing API requests must come from the site's own origin. A browser always sends
 * Origin (and Sec-Fetch-Site) on such requests, so a foreign value is refused; a request carrying
 * neither comes from no browser and cannot be a cross-site forgery. JSON endpoints also insist on a
 * JSON content type, which a cross-site HTML form cannot send.
 */
import { createMiddleware } from "hono/factory";
import type { AppBindings } from "../env";
import { errorJson } from "../http";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Called by the payment provider's servers, authenticated by signature instead. */
const EXEMPT_PATHS = new Set(["/api/stripe/webhook"]);

export const sameOrigin = createMiddleware<AppBindings>(async (c, next) => {
  if (SAFE_METHODS.has(c.req.method) || EXEMPT_PATHS.has(c.req.path)) return next();
  const allowed = new Set([new URL(c.req.url).origin]);
  if (c.env.PUBLIC_SITE_URL) allowed.add(new URL(c.env.PUBLIC_SITE_URL).origin);
  const origin = c.req.header("Origin");
  const fetchSite = c.req.header("Sec-Fetch-Site");
  if ((origin && !allowed.has(origin)) || (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none")) {
    return errorJson(c, 403, "This request must come from the site itself.");
  }
  const contentType = c.req.header("Content-Type") ?? "";
  const hasBody = c.req.header("Content-Length") !== "0" && c.req.raw.body !== null;
  if (hasBody && !/^(application\/json|multipart\/form-data)\b/i.test(contentType)) {
    return errorJson(c, 415, "Send the request body as JSON (Content-Type: application/json).");
  }
  return next();
});

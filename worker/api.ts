/**
 * The Hono app for everything under /api. Astro-free, so the Worker tests can run it on its own.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppBindings } from "./env";
import { DomainError, domainErrorStatus } from "./errors";
import { errorJson } from "./http";
import { loadSession } from "./middleware/auth";
import { sameOrigin } from "./middleware/csrf";
import { adminLeads } from "./routes/admin-leads";
import { auth } from "./routes/auth";
import { buyer } from "./routes/buyer";
import { deliverySetup } from "./routes/delivery-setup";
import { health } from "./routes/health";
import { partnerApi } from "./routes/partner-api";
import { partnerPortal } from "./routes/partner-portal";
import { partners } from "./routes/partners";
import { payments } from "./routes/payments";
import { surveys } from "./routes/surveys";
import { transferOrders } from "./routes/transfer-orders";
import { users } from "./routes/users";

/** JSON bodies beyond this are refused before they are read (the largest is a 1,000-row lead batch). */
export const MAX_JSON_BODY_BYTES = 2 * 1024 * 1024;

export const api = new Hono<AppBindings>().basePath("/api");

// The partner API (bearer keys, server to server) answers before the site's CSRF and session middleware.
api.route("/v1", partnerApi);
api.use(sameOrigin);
const jsonBodyLimit = bodyLimit({
  maxSize: MAX_JSON_BODY_BYTES,
  onError: (c) => errorJson(c, 413, "The request is too large."),
});
// The partner application carries documents and sets its own, larger limit.
api.use((c, next) => (c.req.path === "/api/affnetwork-signup" ? next() : jsonBodyLimit(c, next)));
api.use(loadSession);
api.use((c, next) => {
  c.header("Cache-Control", "no-store");
  return next();
});

// Chained, so that `typeof routes` carries every route's input and output types for the islands' typed
// client (decision 0019). Registration order is unchanged.
const routes = api
  .route("/", health)
  .route("/", auth)
  .route("/", users)
  .route("/", payments)
  .route("/", surveys)
  .route("/", buyer)
  .route("/", partners)
  .route("/", partnerPortal)
  .route("/", transferOrders)
  .route("/", deliverySetup)
  .route("/", adminLeads);

/**
 * The API's routes as one type: the browser's `hc<Api>` client reads every response type from here.
 * `src/` imports it with `import type` only, so no Worker code reaches a browser bundle.
 */
export type Api = typeof routes;

api.all("*", (c) => errorJson(c, 404, "Not found"));

api.onError((error, c) => {
  if (error instanceof DomainError) {
    return c.json({ ...error.details, message: error.message }, domainErrorStatus(error));
  }
  if (error instanceof HTTPException) {
    const message = error.status === 400 ? "The request body is not valid JSON." : error.message;
    return errorJson(c, error.status as ContentfulStatusCode, message || "Bad request");
  }
  console.error("Unhandled API error", error);
  return errorJson(c, 500, "Something went wrong. Please try again.");
});

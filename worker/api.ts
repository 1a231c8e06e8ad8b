/**
 * The Hono app for everything under /api. Astro-free, so the Worker tests can run it on its own.
 *
 * Authorization by construction (decision 0018): every route belongs to exactly one sub-app, and each
 * guarded sub-app is guarded once with `use("*", guard)`, so its handlers read a non-null user:
 * - public: anyone, signed in or not (handlers that care read the nullable user);
 * - account: any signed-in user (401 otherwise);
 * - buyer: signed-in buyers and admins (401 anonymous, 403 partners);
 * - admin: admins (401 anonymous, 403 everyone else);
 * - partner: partner accounts (401 anonymous, 403 everyone else).
 * `mount` keeps each guard to its own sub-app's routes and the URLs as they are (no path prefix).
 */
// The products sold through orders, registered once before any payment is handled (docs/decisions/0077).
import "./order-products";
// And the kinds of CSV import besides aged leads, before a batch is received.
import "./import-kinds";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { REGISTRY_PART_BYTES } from "../src/features/do-not-call/registry-upload";
import { withDeps } from "./deps";
import type { AppBindings, SignedInBindings } from "./env";
import { DomainError, domainErrorStatus } from "./errors";
import { auth, me } from "./features/accounts/routes/auth";
import { adminLeads } from "./features/aged-leads/routes/admin-leads";
import { buyerLeads } from "./features/aged-leads/routes/leads";
import { adminCallbacks } from "./features/callbacks/routes/admin-callbacks";
import { buyerCallbacks } from "./features/callbacks/routes/callbacks";
import { consent } from "./features/consent/routes/consent";
import { adminDoNotCallRequests, doNotCall } from "./features/do-not-call/routes/do-not-call-requests";
import { adminRegistryUploads } from "./features/do-not-call/routes/registry-uploads";
import { adminSuppression, buyerSuppression } from "./features/do-not-call/routes/suppression";
import { buyerOrders } from "./features/orders/routes/buyer-orders";
import { payments } from "./features/orders/routes/payments";
import { savedSurveys, surveys } from "./features/orders/routes/surveys";
import { partnerAdmin } from "./features/partners/routes/partner-admin";
import { partnerApi } from "./features/partners/routes/partner-api";
import { partnerInvitations, partnerPortal } from "./features/partners/routes/partner-portal";
import { partnerApplicationReview, partnerApplications } from "./features/partners/routes/partners";
import { adminFulfilment } from "./features/returns/routes/admin-fulfilment";
import { buyerReturnRoutes } from "./features/returns/routes/returns";
import { trackerTransfers } from "./features/returns/routes/tracker";
import { agents } from "./features/transfers/routes/agents";
import { deliverySetup } from "./features/transfers/routes/delivery-setup";
import { tracker } from "./features/transfers/routes/tracker";
import { transferOrders } from "./features/transfers/routes/transfer-orders";
import { webhooks } from "./features/webhooks/routes/webhooks";
import { errorJson } from "./http";
import { loadSession, requireAdmin, requireBuyer, requirePartner, requireUser } from "./middleware/auth";
import { sameOrigin } from "./middleware/csrf";
import { mount } from "./mount";
import { health } from "./routes/health";
import { users } from "./routes/users";

/** JSON bodies beyond this are refused before they are read (the largest is a 1,000-row lead batch). */
const MAX_JSON_BODY_BYTES = 2 * 1024 * 1024;

const jsonBodyLimit = bodyLimit({
  maxSize: MAX_JSON_BODY_BYTES,
  onError: (c) => errorJson(c, 413, "The request is too large."),
});

/** A registry file's part (docs/decisions/0083) is larger than any JSON body: it has its own limit. */
const REGISTRY_PART_PATH = /^\/api\/admin\/registry-uploads\/\d+\/files\/\d+\/parts\/\d+$/;
const registryPartLimit = bodyLimit({
  maxSize: REGISTRY_PART_BYTES + 64 * 1024,
  onError: (c) => errorJson(c, 413, "The part is larger than a registry part can be."),
});

const publicApp = new Hono<AppBindings>()
  .route("/", health)
  .route("/", auth)
  .route("/", payments)
  .route("/", surveys)
  .route("/", partnerApplications)
  .route("/", partnerInvitations)
  .route("/", deliverySetup)
  .route("/", doNotCall);

const accountApp = new Hono<SignedInBindings>().use("*", requireUser).route("/", me).route("/", savedSurveys);

const buyerApp = new Hono<SignedInBindings>()
  .use("*", requireBuyer)
  .route("/", buyerLeads)
  .route("/", buyerOrders)
  .route("/", tracker)
  .route("/", trackerTransfers)
  .route("/", consent)
  .route("/", buyerReturnRoutes)
  .route("/", buyerSuppression)
  .route("/", webhooks)
  .route("/", buyerCallbacks)
  .route("/", agents);

const adminApp = new Hono<SignedInBindings>()
  .use("*", requireAdmin)
  .route("/", users)
  .route("/", partnerApplicationReview)
  .route("/", partnerAdmin)
  .route("/", transferOrders)
  .route("/", adminLeads)
  .route("/", adminCallbacks)
  .route("/", adminFulfilment)
  .route("/", adminSuppression)
  .route("/", adminRegistryUploads)
  .route("/", adminDoNotCallRequests);

const partnerApp = new Hono<SignedInBindings>().use("*", requirePartner).route("/", partnerPortal);

const site = new Hono<AppBindings>()
  .basePath("/api")
  .use(withDeps)
  // The partner API (bearer keys, server to server) answers before the site's CSRF and session middleware.
  .route("/v1", partnerApi)
  .use(sameOrigin)
  // The partner application carries documents and sets its own, larger limit.
  .use((c, next) => {
    if (c.req.path === "/api/affnetwork-signup") return next();
    return REGISTRY_PART_PATH.test(c.req.path) ? registryPartLimit(c, next) : jsonBodyLimit(c, next);
  })
  .use(loadSession)
  .use((c, next) => {
    c.header("Cache-Control", "no-store");
    return next();
  });

export const api = mount(mount(mount(mount(mount(site, publicApp), accountApp), buyerApp), adminApp), partnerApp);

/** Every route the browser can call, with its request and response types (for `hc<Api>`). */
export type Api = typeof api;

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

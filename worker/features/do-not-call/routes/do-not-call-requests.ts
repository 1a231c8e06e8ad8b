/**
 * /do-not-call requests (product rule 40, docs/decisions/0055): anyone may ask not to be called, and the
 * admins see the requests, search a number and take one off the shop's own list with a logged reason.
 * Thin: parse, the sub-app's guard, a service, respond.
 */
import { Hono } from "hono";
import {
  doNotCallRemovalSchema,
  doNotCallRequestsQuerySchema,
} from "../../../../src/features/do-not-call/schemas/do-not-call-requests";
import { doNotCallSchema } from "../../../../src/features/do-not-call/schemas/suppression";
import type { AppBindings, SignedInBindings } from "../../../env";
import { clientAddress, rateLimit } from "../../../middleware/rate-limit";
import { validate, validateJson } from "../../../validation";
import { requestDoNotCall } from "../do-not-call";
import { listDoNotCallRequests, removeDoNotCallNumber } from "../do-not-call-requests";

/** Mounted in the public sub-app: anyone, 10 requests a minute per address (the one limiter). */
export const doNotCall = new Hono<AppBindings>().post(
  "/do-not-call",
  rateLimit("do-not-call"),
  validateJson(doNotCallSchema),
  async (c) =>
    c.json(
      await requestDoNotCall(c.var.deps, c.req.valid("json"), {
        address: clientAddress(c),
        userAgent: c.req.header("User-Agent") ?? null,
      }),
    ),
);

/** Mounted in the admin sub-app (worker/api.ts). */
export const adminDoNotCallRequests = new Hono<SignedInBindings>()
  .get("/admin/do-not-call-requests", validate("query", doNotCallRequestsQuerySchema), async (c) =>
    c.json(await listDoNotCallRequests(c.var.deps, c.req.valid("query"))),
  )
  .post("/admin/do-not-call-removals", validateJson(doNotCallRemovalSchema), async (c) =>
    c.json(await removeDoNotCallNumber(c.var.deps, c.get("user").id, c.req.valid("json"))),
  );

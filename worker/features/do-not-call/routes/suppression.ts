/**
 * Suppression lists (product rule 40): admins upload shared lists, a buyer
 * uploads their own private list (My Account), and the /do-not-call requests have their own routes (do-not-call-requests.ts).
 * Thin: parse, the sub-app's guard, a service, respond.
 */
import { Hono } from "hono";
import { z } from "../../../../src/domain/schemas/zod";
import {
  adminSuppressionUploadSchema,
  buyerSuppressionUploadSchema,
  suppressionBatchSchema,
  suppressionFinishSchema,
} from "../../../../src/features/do-not-call/schemas/suppression";
import type { SignedInBindings } from "../../../env";
import { validate, validateJson } from "../../../validation";
import {
  acceptSuppressionBatch,
  finishSuppressionUploadSending,
  privateSuppressionList,
  type SuppressionActor,
  sharedSuppressionLists,
  startSuppressionUpload,
  suppressionUploadStatus,
} from "../suppression-uploads";

const uploadParam = validate("param", z.object({ id: z.coerce.number().int().positive() }));

const admin = (userId: string): SuppressionActor => ({ kind: "admin", userId });
const buyer = (userId: string): SuppressionActor => ({ kind: "buyer", userId });

/** Mounted in the admin sub-app (worker/api.ts). */
export const adminSuppression = new Hono<SignedInBindings>()
  .get("/admin/suppression-lists", async (c) => c.json({ lists: await sharedSuppressionLists(c.var.deps) }))
  .post("/admin/suppression-uploads", validateJson(adminSuppressionUploadSchema), async (c) =>
    c.json(await startSuppressionUpload(c.var.deps, admin(c.get("user").id), c.req.valid("json")), 201),
  )
  .get("/admin/suppression-uploads/:id", uploadParam, async (c) =>
    c.json(await suppressionUploadStatus(c.var.deps, admin(c.get("user").id), c.req.valid("param").id)),
  )
  .post("/admin/suppression-uploads/:id/batches", uploadParam, validateJson(suppressionBatchSchema), async (c) =>
    c.json(
      await acceptSuppressionBatch(c.var.deps, admin(c.get("user").id), c.req.valid("param").id, c.req.valid("json")),
    ),
  )
  .post("/admin/suppression-uploads/:id/finish", uploadParam, validateJson(suppressionFinishSchema), async (c) =>
    c.json(
      await finishSuppressionUploadSending(
        c.var.deps,
        admin(c.get("user").id),
        c.req.valid("param").id,
        c.req.valid("json").batches,
      ),
    ),
  );

/** Mounted in the buyer sub-app: a buyer's own private list only. */
export const buyerSuppression = new Hono<SignedInBindings>()
  .get("/my-suppression-list", async (c) =>
    c.json({ list: await privateSuppressionList(c.var.deps, c.get("user").id) }),
  )
  .post("/my-suppression-uploads", validateJson(buyerSuppressionUploadSchema), async (c) =>
    c.json(await startSuppressionUpload(c.var.deps, buyer(c.get("user").id), c.req.valid("json")), 201),
  )
  .get("/my-suppression-uploads/:id", uploadParam, async (c) =>
    c.json(await suppressionUploadStatus(c.var.deps, buyer(c.get("user").id), c.req.valid("param").id)),
  )
  .post("/my-suppression-uploads/:id/batches", uploadParam, validateJson(suppressionBatchSchema), async (c) =>
    c.json(
      await acceptSuppressionBatch(c.var.deps, buyer(c.get("user").id), c.req.valid("param").id, c.req.valid("json")),
    ),
  )
  .post("/my-suppression-uploads/:id/finish", uploadParam, validateJson(suppressionFinishSchema), async (c) =>
    c.json(
      await finishSuppressionUploadSending(
        c.var.deps,
        buyer(c.get("user").id),
        c.req.valid("param").id,
        c.req.valid("json").batches,
      ),
    ),
  );

/**
 * Registry uploads (docs/decisions/0083-loading-the-whole-registry.md), admins only: start, send a file's
 * parts (multipart/form-data, one `part` each), read the status (resume from it), finish. Thin: parse, the
 * admin sub-app's guard, a service, respond.
 */
import { Hono } from "hono";
import { z } from "../../../../src/domain/schemas/zod";
import { registryUploadStartSchema } from "../../../../src/features/do-not-call/schemas/registry-upload";
import type { SignedInBindings } from "../../../env";
import { validate, validateJson } from "../../../validation";
import {
  finishRegistryUpload,
  putRegistryPart,
  recentRegistryUploads,
  registryUploadStatus,
  startRegistryUpload,
} from "../registry-uploads";

const id = z.coerce.number().int().positive();
const uploadParam = validate("param", z.object({ id }));
const partParam = validate("param", z.object({ id, fileId: id, part: id }));
const partForm = validate(
  "form",
  z.object({ part: z.instanceof(Blob, { error: "Send the part as the form's `part` file." }) }),
);

/** Mounted in the admin sub-app (worker/api.ts). */
export const adminRegistryUploads = new Hono<SignedInBindings>()
  .get("/admin/registry-uploads", async (c) => c.json({ uploads: await recentRegistryUploads(c.var.deps) }))
  .post("/admin/registry-uploads", validateJson(registryUploadStartSchema), async (c) =>
    c.json(await startRegistryUpload(c.var.deps, c.get("user").id, c.req.valid("json")), 201),
  )
  .get("/admin/registry-uploads/:id", uploadParam, async (c) =>
    c.json(await registryUploadStatus(c.var.deps, c.req.valid("param").id)),
  )
  .put("/admin/registry-uploads/:id/files/:fileId/parts/:part", partParam, partForm, async (c) => {
    const { id: uploadId, fileId, part } = c.req.valid("param");
    return c.json(await putRegistryPart(c.var.deps, uploadId, fileId, part, c.req.valid("form").part));
  })
  .post("/admin/registry-uploads/:id/finish", uploadParam, async (c) =>
    c.json(await finishRegistryUpload(c.var.deps, c.req.valid("param").id)),
  );

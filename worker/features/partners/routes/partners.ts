/** Partner applications (product rules 33, 34): anonymous submission with documents, admin review. */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import {
  applicationStatusSchema,
  DOCUMENT_ERRORS,
  partnerApplicationSchema,
} from "../../../../src/features/partners/schemas/partner";
import type { AppBindings, SignedInBindings } from "../../../env";
import { errorJson } from "../../../http";
import { rateLimitOutcomes } from "../../../middleware/rate-limit";
import { siteOrigin } from "../../../services/mail";
import { validateJson, validationFailure } from "../../../validation";
import { decideApplication, resendInvitation } from "../partner-accounts";
import {
  documentProblem,
  listApplications,
  MAX_APPLICATION_BYTES,
  openDocument,
  submitApplication,
} from "../partner-applications";

/** The public application form's endpoint: mounted in the public sub-app (worker/api.ts). */
export const partnerApplications = new Hono<AppBindings>().post(
  "/affnetwork-signup",
  bodyLimit({
    maxSize: MAX_APPLICATION_BYTES,
    onError: (c) => c.json(documentProblem(DOCUMENT_ERRORS.tooLarge.title, "The upload is larger than 50 MB."), 413),
  }),
  rateLimitOutcomes("partner-application", (status) => status === 201),
  async (c) => {
    const form = await c.req.formData().catch(() => null);
    if (!form) return errorJson(c, 400, "Send the application as a multipart form.");
    const fields = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));
    const parsed = partnerApplicationSchema.safeParse(fields);
    if (!parsed.success) return validationFailure(c, parsed.error);
    const files = form
      .getAll("documents")
      .filter((value): value is File => typeof value !== "string" && value.size > 0);
    const { id } = await submitApplication(c.var.deps, parsed.data, files);
    return c.json({ message: "Application submitted", id }, 201);
  },
);

/** The admin's review of applications: mounted in the admin sub-app (worker/api.ts). */
export const partnerApplicationReview = new Hono<SignedInBindings>()
  .get("/affnetwork-signups", async (c) => c.json(await listApplications(c.var.deps)))
  .patch("/affnetwork-signups/:id/status", validateJson(applicationStatusSchema), async (c) => {
    const { status } = c.req.valid("json");
    const origin = siteOrigin(c.var.deps, c.req.url);
    await decideApplication(c.var.deps, c.req.param("id"), status, c.get("user").id, origin);
    return c.json({ message: "Application status updated successfully", status });
  })
  .post("/affnetwork-signups/:id/invitation", async (c) => {
    await resendInvitation(c.var.deps, c.req.param("id"), siteOrigin(c.var.deps, c.req.url));
    return c.json({ message: "Invitation sent" });
  })
  .get("/download-document/:id", async (c) => {
    const doc = await openDocument(c.var.deps, c.req.param("id"));
    return new Response(doc.body, {
      headers: {
        "Content-Type": doc.contentType,
        "Content-Length": String(doc.size),
        "Content-Disposition": `attachment; filename="${doc.fileName}"`,
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, no-store",
      },
    });
  });

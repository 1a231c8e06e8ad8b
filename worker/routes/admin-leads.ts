/** Admin lead uploads (product rules 5, 15): single aged leads, callback opportunities, CSV imports. */
import { Hono } from "hono";
import { adminAgedLeadSchema, bulkUploadSchema, callbackOpportunitySchema } from "../../src/domain/schemas/admin-leads";
import type { SignedInBindings } from "../env";
import {
  addAgedLead,
  addCallbackOpportunity,
  callbackConsentRecord,
  recentAgedLeads,
  recentCallbackOpportunities,
} from "../services/admin-leads";
import { importReportCsv } from "../services/import-report";
import { receivedBatchNumbers } from "../services/import-sweep";
import { acceptBatch, findImport } from "../services/imports";
import { validateJson } from "../validation";

/** Mounted in the admin sub-app (worker/api.ts). */
export const adminLeads = new Hono<SignedInBindings>()
  .post("/admin/aged-leads", validateJson(adminAgedLeadSchema), async (c) => {
    const added = await addAgedLead(c.var.deps, c.req.valid("json"));
    return c.json({ message: "Aged lead uploaded successfully", ...added }, 201);
  })
  .get("/admin/aged-leads", async (c) => c.json(await recentAgedLeads(c.var.deps)))
  .post("/admin/callback-opportunities", validateJson(callbackOpportunitySchema), async (c) => {
    const added = await addCallbackOpportunity(c.var.deps, c.req.valid("json"), c.get("user").id);
    return c.json({ message: "Callback opportunity uploaded successfully", ...added }, 201);
  })
  .get("/admin/callback-opportunities", async (c) => c.json(await recentCallbackOpportunities(c.var.deps)))
  .get("/admin/callback-opportunities/:id/consent", async (c) =>
    c.json(await callbackConsentRecord(c.var.deps, c.req.param("id"))),
  )
  .post("/bulk-upload-aged-leads", validateJson(bulkUploadSchema), async (c) => {
    const accepted = await acceptBatch(c.var.deps, c.get("user").id, c.req.valid("json"));
    return c.json({ ...accepted, count: accepted.received });
  })
  .get("/imports/:id", async (c) => c.json(await findImport(c.var.deps, c.req.param("id"))))
  // A resumed upload sends only the batches the server does not have.
  .get("/imports/:id/batches", async (c) =>
    c.json({ received: await receivedBatchNumbers(c.var.deps, c.req.param("id")) }),
  )
  .get("/imports/:id/report.csv", async (c) => {
    const status = await findImport(c.var.deps, c.req.param("id"));
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", `attachment; filename="import-report-${status.id}.csv"`);
    return c.body(importReportCsv(c.var.deps, status));
  });

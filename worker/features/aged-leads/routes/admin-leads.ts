/** Admin lead uploads (product rules 5, 15): single aged leads and CSV imports (call-backs too: the file says which). */
import { Hono } from "hono";
import { adminAgedLeadSchema, bulkUploadSchema } from "../../../../src/features/aged-leads/schemas/admin-leads";
import type { SignedInBindings } from "../../../env";
import { validateJson } from "../../../validation";
import { addAgedLead, recentAgedLeads } from "../admin-leads";
import { importReportCsv } from "../import-report";
import { receivedBatchNumbers } from "../import-sweep";
import { acceptBatch, findImport } from "../imports";

/** Mounted in the admin sub-app (worker/api.ts). */
export const adminLeads = new Hono<SignedInBindings>()
  .post("/admin/aged-leads", validateJson(adminAgedLeadSchema), async (c) => {
    const added = await addAgedLead(c.var.deps, c.req.valid("json"));
    return c.json({ message: "Aged lead uploaded successfully", ...added }, 201);
  })
  .get("/admin/aged-leads", async (c) => c.json(await recentAgedLeads(c.var.deps)))
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

/** Admin lead uploads (spec §7; PRODUCT.md D7, D8): single aged leads, callback opportunities, CSV imports. */
import { Hono } from "hono";
import { storedLead } from "../../src/domain/leads";
import { dollarsToCents } from "../../src/domain/pricing";
import { adminAgedLeadSchema, bulkUploadSchema, callbackOpportunitySchema } from "../../src/domain/schemas/admin-leads";
import type { AppBindings } from "../env";
import { errorJson } from "../http";
import { requireAdmin } from "../middleware/auth";
import { acceptBatch, importReportCsv, importStatus } from "../services/imports";
import { priceLead } from "../services/leads";
import { validateJson } from "../validation";

const RECENT = 50;

export const adminLeads = new Hono<AppBindings>()
  .use("/admin/*", requireAdmin)
  .use("/bulk-upload-aged-leads", requireAdmin)
  .use("/imports/*", requireAdmin)
  .post("/admin/aged-leads", validateJson(adminAgedLeadSchema), async (c) => {
    const lead = storedLead(c.req.valid("json"));
    const id = crypto.randomUUID();
    const inserted = await c.env.DB.prepare(
      `INSERT INTO aged_leads (id, name, email, phone, state, age_range, price_cents, form_fill_time, dedupe_key, area_code)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
    )
      .bind(
        id,
        lead.name,
        lead.email,
        lead.phone,
        lead.state,
        lead.ageRange,
        lead.priceCents,
        lead.formFillTime,
        lead.dedupeKey,
        lead.areaCode,
      )
      .first();
    if (!inserted) return errorJson(c, 409, "This lead is already listed (same phone and form fill time).");
    const priced = priceLead(
      { form_fill_time: lead.formFillTime, age_range: lead.ageRange, price_cents: lead.priceCents },
      Date.now(),
    );
    return c.json(
      { message: "Aged lead uploaded successfully", id, ageRange: priced.ageRange, priceCents: priced.priceCents },
      201,
    );
  })
  .get("/admin/aged-leads", async (c) => {
    const now = Date.now();
    const { results } = await c.env.DB.prepare(
      `SELECT id, name, phone, state, age_range, price_cents, form_fill_time, sold_at, reserved_until, created_at
       FROM aged_leads ORDER BY created_at DESC LIMIT ${RECENT}`,
    ).all<{
      id: string;
      name: string;
      phone: string;
      state: string;
      age_range: null;
      price_cents: number;
      form_fill_time: number | null;
      sold_at: number | null;
      reserved_until: number | null;
      created_at: number;
    }>();
    return c.json(
      results.map((row) => {
        const priced = priceLead(row, now);
        const status = row.sold_at ? "sold" : row.reserved_until && row.reserved_until > now ? "reserved" : "available";
        return {
          id: row.id,
          name: row.name,
          phone: row.phone,
          state: row.state,
          ageRange: priced.ageRange,
          priceCents: priced.priceCents,
          status,
          createdAt: new Date(row.created_at).toISOString(),
        };
      }),
    );
  })
  .post("/admin/callback-opportunities", validateJson(callbackOpportunitySchema), async (c) => {
    const opportunity = c.req.valid("json");
    const id = crypto.randomUUID();
    await c.env.DB.prepare(
      "INSERT INTO callback_opportunities (id, name, email, phone, state, price_cents, created_by) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
      .bind(
        id,
        opportunity.name,
        opportunity.email,
        opportunity.phone,
        opportunity.state,
        dollarsToCents(opportunity.price) ?? 0,
        c.get("user")?.id ?? null,
      )
      .run();
    return c.json({ message: "Callback opportunity uploaded successfully", id }, 201);
  })
  .get("/admin/callback-opportunities", async (c) => {
    const { results } = await c.env.DB.prepare(
      `SELECT id, name, email, phone, state, price_cents, created_at FROM callback_opportunities ORDER BY created_at DESC LIMIT ${RECENT}`,
    ).all<{
      id: string;
      name: string;
      email: string;
      phone: string;
      state: string;
      price_cents: number;
      created_at: number;
    }>();
    return c.json(
      results.map((row) => ({
        id: row.id,
        name: row.name,
        email: row.email,
        phone: row.phone,
        state: row.state,
        priceCents: row.price_cents,
        createdAt: new Date(row.created_at).toISOString(),
      })),
    );
  })
  .post("/bulk-upload-aged-leads", validateJson(bulkUploadSchema), async (c) => {
    const accepted = await acceptBatch(c.env, c.get("user")?.id ?? null, c.req.valid("json"));
    return c.json({ ...accepted, count: accepted.received });
  })
  .get("/imports/:id", async (c) => {
    const status = await importStatus(c.env.DB, c.req.param("id"));
    return status ? c.json(status) : errorJson(c, 404, "Import not found");
  })
  .get("/imports/:id/report.csv", async (c) => {
    const status = await importStatus(c.env.DB, c.req.param("id") ?? "");
    if (!status) return errorJson(c, 404, "Import not found");
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", `attachment; filename="import-report-${status.id}.csv"`);
    return c.body(importReportCsv(c.env.DB, status));
  });

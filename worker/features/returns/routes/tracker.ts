/** The Lead Tracker's transfers (with their returns), buyer side: a page of them, or all as CSV. */
import { Hono } from "hono";
import { trackerQuerySchema } from "../../../../src/features/returns/schemas/returns";
import type { SignedInBindings } from "../../../env";
import { validate } from "../../../validation";
import { listTrackerTransfers, trackerCsv } from "../tracker";

/** Mounted in the buyer sub-app (worker/api.ts), beside the tracker's orders (worker/features/transfers/routes/tracker.ts). */
export const trackerTransfers = new Hono<SignedInBindings>()
  .get("/tracker/transfers", validate("query", trackerQuerySchema), async (c) =>
    c.json(await listTrackerTransfers(c.var.deps, c.get("user").id, c.req.valid("query"))),
  )
  .get("/tracker/transfers.csv", validate("query", trackerQuerySchema), async (c) => {
    const { page: _page, ...filters } = c.req.valid("query");
    const body = await trackerCsv(c.var.deps, c.get("user").id, filters);
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="lead-tracker.csv"');
    return c.body(body);
  });

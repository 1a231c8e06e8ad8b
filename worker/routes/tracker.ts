/** The Lead Tracker's API (issue 16 item 1): the signed-in buyer's transfers, orders and pause/resume. */
import { Hono } from "hono";
import { trackerQuerySchema } from "../../src/domain/schemas/returns";
import type { AppBindings } from "../env";
import { requireBuyer } from "../middleware/auth";
import { listTrackerOrders, listTrackerTransfers, setOrderPaused, trackerCsv } from "../services/tracker";
import { validate } from "../validation";

function buyerId(c: { get(key: "user"): AppBindings["Variables"]["user"] }): string {
  const user = c.get("user");
  if (!user) throw new Error("requireBuyer must run first");
  return user.id;
}

export const tracker = new Hono<AppBindings>()
  .use("/tracker/*", requireBuyer)
  .get("/tracker/transfers", validate("query", trackerQuerySchema), async (c) =>
    c.json(await listTrackerTransfers(c.env, buyerId(c), c.req.valid("query"))),
  )
  .get("/tracker/transfers.csv", validate("query", trackerQuerySchema), async (c) => {
    const { page: _page, ...filters } = c.req.valid("query");
    const body = await trackerCsv(c.env, buyerId(c), filters);
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="lead-tracker.csv"');
    return c.body(body);
  })
  .get("/tracker/orders", async (c) => c.json(await listTrackerOrders(c.env, buyerId(c))))
  .post("/tracker/orders/:orderId/pause", async (c) =>
    c.json(await setOrderPaused(c.env, buyerId(c), c.req.param("orderId"), true)),
  )
  .post("/tracker/orders/:orderId/resume", async (c) =>
    c.json(await setOrderPaused(c.env, buyerId(c), c.req.param("orderId"), false)),
  );

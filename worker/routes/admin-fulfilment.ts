/** The admin's Fulfilment tab (issue 16 item 3): open orders, partners, and the returns queue. Admins only. */
import { Hono } from "hono";
import { adminReturnsQuerySchema, returnDecisionSchema } from "../../src/domain/schemas/returns";
import type { AppBindings } from "../env";
import { requireAdmin } from "../middleware/auth";
import { fulfilmentOverview } from "../services/fulfilment";
import { siteOrigin } from "../services/mail";
import { decideReturn, listAdminReturns } from "../services/returns";
import { validate, validateJson } from "../validation";

export const adminFulfilment = new Hono<AppBindings>()
  .use("/admin/fulfilment", requireAdmin)
  .use("/admin/returns", requireAdmin)
  .use("/admin/returns/*", requireAdmin)
  .get("/admin/fulfilment", async (c) => c.json(await fulfilmentOverview(c.env)))
  .get("/admin/returns", validate("query", adminReturnsQuerySchema), async (c) =>
    c.json(await listAdminReturns(c.env, c.req.valid("query").status)),
  )
  .post("/admin/returns/:id/decision", validateJson(returnDecisionSchema), async (c) => {
    const admin = c.get("user");
    if (!admin) throw new Error("requireAdmin must run first");
    return c.json(
      await decideReturn(c.env, admin.id, c.req.param("id"), c.req.valid("json"), {
        siteOrigin: siteOrigin(c.env, c.req.url),
      }),
    );
  });

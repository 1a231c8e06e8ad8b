/** Returns and the balance, buyer side (issue 16 item 2): what can be returned, asking, and the ledger. */
import { Hono } from "hono";
import { createReturnSchema } from "../../src/domain/schemas/returns";
import type { AppBindings } from "../env";
import { requireBuyer } from "../middleware/auth";
import { getBalance } from "../services/balance";
import { buyerReturns, createReturn, eligibleReturns } from "../services/returns";
import { validateJson } from "../validation";

function buyerId(c: { get(key: "user"): AppBindings["Variables"]["user"] }): string {
  const user = c.get("user");
  if (!user) throw new Error("requireBuyer must run first");
  return user.id;
}

export const buyerReturnRoutes = new Hono<AppBindings>()
  .use("/returns", requireBuyer)
  .use("/returns/*", requireBuyer)
  .use("/balance", requireBuyer)
  .get("/returns", async (c) => c.json(await buyerReturns(c.env, buyerId(c))))
  .get("/returns/eligible", async (c) => c.json(await eligibleReturns(c.env, buyerId(c))))
  .post("/returns", validateJson(createReturnSchema), async (c) =>
    c.json(await createReturn(c.env, buyerId(c), c.req.valid("json")), 201),
  )
  .get("/balance", async (c) => c.json(await getBalance(c.env, buyerId(c))));

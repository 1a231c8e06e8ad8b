import { Hono } from "hono";
import type { AppBindings } from "../env";
import { databaseState } from "../services/health";
import { paymentProviderStatus } from "../services/payments/provider";

/**
 * Liveness plus a real D1 round trip (how far the database is migrated), and which payment provider
 * takes payments for this request: `stripe`, `simulated` or `unavailable` (with the reason).
 */
export const health = new Hono<AppBindings>().get("/health", async (c) => {
  const payments = paymentProviderStatus(c.env, c.req.url);
  return c.json({
    ok: true,
    database: await databaseState(c.env.DB),
    payments: payments.provider,
    ...(payments.reason ? { paymentsReason: payments.reason } : {}),
  });
});

import { Hono } from "hono";
import type { AppBindings } from "../env";
import { paymentProviderStatus } from "../services/payments/provider";

/**
 * Liveness plus a real D1 round trip (how far the database is migrated), and which payment provider
 * takes payments for this request: `stripe`, `simulated` or `unavailable` (with the reason).
 */
export const health = new Hono<AppBindings>().get("/health", async (c) => {
  const row = await c.env.DB.prepare(
    "SELECT count(*) AS tables FROM sqlite_master WHERE type = 'table' AND name = 'users'",
  ).first<{ tables: number }>();
  const payments = paymentProviderStatus(c.env, c.req.url);
  return c.json({
    ok: true,
    database: row?.tables === 1 ? "ready" : "missing-migrations",
    payments: payments.provider,
    ...(payments.reason ? { paymentsReason: payments.reason } : {}),
  });
});

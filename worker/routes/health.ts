import { Hono } from "hono";
import type { AppBindings } from "../env";
import { paymentProviderStatus } from "../features/orders/payments/provider";
import { webhookKeyState } from "../features/webhooks/keys";
import { databaseState } from "../services/health";
import { siteUrlState } from "../services/mail";

const SITE_URL_MISSING =
  "PUBLIC_SITE_URL is not set: e-mails with links (password resets, invitations, setup links) are not sent.";

/**
 * Liveness plus a real D1 round trip (how far the database is migrated), which payment provider takes
 * payments for this request (`stripe`, `simulated` or `unavailable`, with the reason), and whether
 * e-mailed links can be absolute (`siteUrl`: `configured`, `development`, or `missing` with the reason), and
 * whether buyer webhooks can run (`webhooks`: `ready`, or `missing`/`development-key` for WEBHOOK_SECRETS_KEY).
 */
export const health = new Hono<AppBindings>().get("/health", async (c) => {
  const payments = paymentProviderStatus(c.var.deps, c.req.url);
  const siteUrl = siteUrlState(c.var.deps);
  return c.json({
    ok: true,
    database: await databaseState(c.var.deps),
    payments: payments.provider,
    ...(payments.reason ? { paymentsReason: payments.reason } : {}),
    siteUrl,
    ...(siteUrl === "missing" ? { siteUrlReason: SITE_URL_MISSING } : {}),
    webhooks: webhookKeyState(c.env),
  });
});

/** Partners, keys and paid live-transfer orders with delivery settings, for the transfer tests. */
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, vi } from "vitest";
import type { DeliverySettings, PartnerPaymentTerms } from "../../src/domain/transfers";
import { partners } from "../../worker/db/schema";
import { createDeps } from "../../worker/deps";
import { createApiKey, hashApiKey, keyOwnerOf, keyOwnerQuery } from "../../worker/services/api-keys";
import { saveDeliverySettings } from "../../worker/services/order-delivery";
import { createUser } from "./helpers";

/** The services' first parameter, at `now` (the current time unless given). */
export const deps = (now?: number) => createDeps(env, now);
const db = () => deps().db;

export async function createPartner(
  options: { dailyCallCap?: number; payPerTransferCents?: number; paymentTerms?: PartnerPaymentTerms } = {},
) {
  const user = await createUser();
  await env.DB.prepare("UPDATE users SET account_type = 'partner' WHERE id = ?").bind(user.id).run();
  const id = crypto.randomUUID();
  await db()
    .insert(partners)
    .values({
      id,
      userId: user.id,
      businessName: "Test Call Center",
      didNumber: "2145550100",
      dailyCallCap: options.dailyCallCap ?? 1000,
      payPerTransferCents: options.payPerTransferCents ?? 2500,
      paymentTerms: options.paymentTerms ?? "Net 15",
      timeZone: "America/Chicago",
    });
  const { key, apiKey } = await createApiKey(deps(), id, "Dialer");
  // The partner-key middleware's own lookup: unknown or revoked keys are 401.
  const owner = keyOwnerOf(await keyOwnerQuery(deps(), await hashApiKey(key)));
  const profile = {
    id,
    businessName: "Test Call Center",
    dailyCallCap: owner.dailyCallCap,
    timeZone: owner.timeZone,
    payPerTransferCents: owner.payPerTransferCents,
    paymentTerms: owner.paymentTerms,
    requireTrustedForm: owner.requireTrustedForm,
  };
  return { user, id, key, apiKey, owner, profile, auth: { Authorization: `Bearer ${key}` } };
}

/** A paid live-transfer order with complete delivery settings (all day, every state, 100 a day by default). */
export async function createOpenOrder(
  options: Partial<DeliverySettings> & { quantity?: number; paidAt?: number; buyerId?: string } = {},
) {
  const buyerId = options.buyerId ?? (await createUser()).id;
  const id = crypto.randomUUID();
  const quantity = options.quantity ?? 10;
  await env.DB.prepare(
    `INSERT INTO orders (id, kind, tier, quantity, unit_price_cents, total_cents, user_id, email, details, payment_intent_id, status, paid_at)
     VALUES (?, 'transfer', 'standard', ?, 5000, ?, ?, NULL, '{}', ?, 'paid', ?)`,
  )
    .bind(id, quantity, quantity * 5000, buyerId, `pi_test_${id}`, options.paidAt ?? Date.now())
    .run();
  await saveDeliverySettings(deps(), id, quantity, {
    transferPhone: "transferPhone" in options ? (options.transferPhone ?? null) : "2145559000",
    states: options.states ?? [],
    hoursStartMinute: options.hoursStartMinute ?? 0,
    hoursEndMinute: options.hoursEndMinute ?? 0,
    days: options.days ?? null,
    timeZone: options.timeZone ?? "America/Chicago",
    perDayCap: options.perDayCap ?? 100,
  });
  return { id, buyerId, quantity };
}

/**
 * Wednesday 2027-03-03 20:00 UTC: 3 pm in New York … 10 am in Honolulu, a day no state keeps as a holiday,
 * so every prospect's legal calling hours are open (docs/decisions/0064). Ahead of the real clock, so
 * nothing a test made before reads as made later.
 */
const CALLING_HOURS = Date.UTC(2027, 2, 3, 20);

/**
 * Routes this file's pings inside the prospects' legal calling hours whatever the real time: the clock
 * (`Date` only, which the Worker reads too) starts at `at` before the file's first test and runs on from
 * there. Call once at the top of a test file that routes pings; a test that sets its own clock must pick
 * a moment inside the calling hours too.
 */
export function routeAtCallingHours(at = CALLING_HOURS): void {
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(at);
  });
  afterAll(() => {
    vi.useRealTimers();
  });
}

let phoneCount = 0;
/** A fresh valid prospect phone for each call (Chicago's area code unless given: the prospect's zone, decision 0064). */
export function newPhone(areaCode = "312"): string {
  phoneCount += 1;
  return `${areaCode}${String(Date.now() % 10_000).padStart(4, "0")}${String(phoneCount % 1000).padStart(3, "0")}`;
}

export function pingBody(overrides: { state?: string; phone?: string } = {}) {
  return {
    prospect: {
      firstName: "Mary",
      lastName: "Johnson",
      phone: overrides.phone ?? newPhone(),
      state: overrides.state ?? "TX",
    },
    consent: { optInAt: new Date(Date.now() - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
  };
}

/** Every test starts with no open orders and no transfers. */
export async function clearTransfers(): Promise<void> {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM transfer_events"),
    env.DB.prepare("DELETE FROM transfers"),
    env.DB.prepare("DELETE FROM order_delivery"),
  ]);
}

export async function orderCounts(orderId: string) {
  return env.DB.prepare(
    `SELECT d.transfers_billable AS billable, d.transfers_not_charged AS notCharged, d.paused, o.status
     FROM order_delivery d JOIN orders o ON o.id = d.order_id WHERE d.order_id = ?`,
  )
    .bind(orderId)
    .first<{ billable: number; notCharged: number; paused: number; status: string }>();
}

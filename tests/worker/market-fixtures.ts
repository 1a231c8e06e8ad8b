/** The call-back marketplace as its tests arrange it (docs/decisions/0061): stock, the listing, a purchase, its order. */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import type { MarketCallback } from "../../src/features/callbacks/callback-market";
import { callbackOpportunities, orders } from "../../worker/db/schema";
import { createCredit, testDb } from "./factories";
import { storedRow } from "./factories/rows";
import { callApi } from "./helpers";
import { deps } from "./transfer-fixtures";

export const HOUR = 3_600_000;

let phoneCount = 0;
/** A fresh prospect phone (area code 605: no test file but the marketplace's uses it). */
export const freshPhone = () => `605${String((Date.now() % 10_000) * 1000 + (++phoneCount % 1000)).padStart(7, "0")}`;

/** An unassigned call-back or appointment whose window starts `startsIn` ms from now (a fresh phone unless given). */
export async function stock(
  options: { kind?: "callback" | "appointment"; startsIn?: number; priceCents?: number; phone?: string } = {},
) {
  const id = crypto.randomUUID();
  const phone = options.phone ?? freshPhone();
  const start = Date.now() + (options.startsIn ?? 24 * HOUR);
  const kind = options.kind ?? "appointment";
  await deps()
    .db.insert(callbackOpportunities)
    .values({
      id,
      kind,
      name: "Ruth Miller",
      email: "ruth@example.com",
      phone,
      phoneKey: Number(phone),
      state: "TX",
      timeZone: "America/Chicago",
      windowStart: new Date(start),
      windowEnd: new Date(start + (kind === "appointment" ? 30 : 120) * 60_000),
      priceCents: options.priceCents ?? 1500,
      source: "admin",
    });
  return { id, phone, start };
}

export async function listing(cookie: string, kind: "callback" | "appointment") {
  const response = await callApi(`/api/callback-market?kind=${kind}`, { cookie });
  expect(response.status).toBe(200);
  return (await response.json<{ items: MarketCallback[] }>()).items;
}

export const buy = (cookie: string, callbackId: string) =>
  callApi("/api/callback-market/purchase", { cookie, json: { callbackId } });

/** The marketplace order that holds `callbackId`. */
export async function orderOf(callbackId: string) {
  const placed = await testDb().select({ id: orders.id, details: orders.details }).from(orders);
  const found = placed.find((order) => order.details.callbackId === callbackId);
  return { orderId: found?.id ?? "" };
}

export async function row(id: string) {
  return storedRow(testDb(), callbackOpportunities, eq(callbackOpportunities.id, id));
}

/** A ledger credit as an approved aged-lead return writes it. */
export async function credit(userId: string, amountCents: number) {
  await createCredit(testDb(), userId, amountCents);
}

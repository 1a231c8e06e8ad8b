/** Buyers with delivered transfers and bought aged leads, for the tracker, returns and balance tests. */
import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { expect } from "vitest";
import { pingSchema } from "../../src/features/transfers/schemas/partner-api";
import { agedLeads, outbox } from "../../worker/db/schema";
import { createDeps } from "../../worker/deps";
import { recordTransferEvent, routeTransfer } from "../../worker/features/transfers/transfers";
import { testDb } from "./factories";
import { callApi, signedIn } from "./helpers";
import { buyLeads, createLeads, payWithCard, type Started } from "./payment-fixtures";
import { createOpenOrder, type createPartner, newPhone } from "./transfer-fixtures";

export const HOUR = 60 * 60 * 1000;
export const DAY = 24 * HOUR;

export type Partner = Awaited<ReturnType<typeof createPartner>>;

/** A signed-in buyer with a paid, open live-transfer order. */
export async function buyerWithOrder(options: Parameters<typeof createOpenOrder>[0] = {}) {
  const buyer = await signedIn();
  const order = await createOpenOrder({ ...options, buyerId: buyer.user.id });
  return { ...buyer, order };
}

/**
 * A transfer routed at `at` (to the oldest open order: give each test its own orders), connected 5 s
 * later and completed `durationSeconds` after that: billable above 120 s.
 */
export async function deliver(
  partner: Partner,
  options: { at?: number; durationSeconds?: number; state?: string; firstName?: string } = {},
) {
  const at = options.at ?? Date.now() - 10 * 60_000;
  const ping = pingSchema.parse({
    prospect: {
      firstName: options.firstName ?? "Ann",
      lastName: "Lee",
      phone: newPhone(),
      state: options.state ?? "TX",
    },
    consent: { optInAt: new Date(at - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
  });
  const answer = await routeTransfer(createDeps(env, at), partner.owner, ping);
  const durationSeconds = options.durationSeconds ?? 300;
  const site = { siteOrigin: "http://localhost" };
  // Connected within the answer's 60 seconds, so the call holds its slot until it completes.
  await recordTransferEvent(createDeps(env, at + 5000), partner.id, answer.transferId, { type: "connected" }, site);
  await recordTransferEvent(
    createDeps(env, at + 5000 + durationSeconds * 1000),
    partner.id,
    answer.transferId,
    { type: "completed", durationSeconds },
    site,
  );
  return answer.transferId;
}

/** Several billable transfers to the open orders, `at` each (default: ten minutes ago). */
export async function deliverMany(partner: Partner, count: number, at?: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await deliver(partner, { at: at === undefined ? undefined : at + i }));
  return ids;
}

/** Aged leads bought and paid by the buyer through the real checkout ($5.00 each). */
export async function buyAgedLeads(cookie: string, count: number): Promise<{ orderId: string; leadIds: string[] }> {
  const leadIds = await createLeads(count);
  const started = await buyLeads(cookie, leadIds);
  expect(started.status).toBe(200);
  const { clientSecret, orderId } = await started.json<Started>();
  expect((await payWithCard(clientSecret)).status).toBe(200);
  return { orderId, leadIds };
}

/** Moves a sold lead's purchase into the past. */
export async function soldAgo(leadId: string, ms: number): Promise<void> {
  await testDb()
    .update(agedLeads)
    .set({ soldAt: new Date(Date.now() - ms) })
    .where(eq(agedLeads.id, leadId));
}

export async function requestReturn(
  cookie: string,
  body: { kind: "transfer" | "aged_lead"; itemId: string; reason?: string; reasonText?: string },
) {
  return callApi("/api/returns", { json: { reason: "disconnected", ...body }, cookie });
}

export async function decideReturn(returnId: string, decision: "approved" | "denied", note?: string) {
  const admin = await signedIn({ isAdmin: true });
  return callApi(`/api/admin/returns/${returnId}/decision`, {
    json: { decision, ...(note ? { note } : {}) },
    cookie: admin.cookie,
  });
}

export async function mailsTo(email: string): Promise<{ subject: string; text: string }[]> {
  return testDb()
    .select({ subject: outbox.subject, text: outbox.text })
    .from(outbox)
    .where(eq(outbox.to, email))
    .orderBy(asc(outbox.createdAt));
}

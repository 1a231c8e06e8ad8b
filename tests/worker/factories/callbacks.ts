/** Call-back opportunities straight into D1, as an admin's form leaves them (decision 0067, decision 0058). */
import { phoneKey } from "../../../src/features/do-not-call/suppression";
import { callbackOpportunities } from "../../../worker/db/schema";
import { type Database, uniquePhone } from "./db";

/** Any column of `callback_opportunities`. */
export type CallbackOverrides = Partial<typeof callbackOpportunities.$inferInsert>;

export type TestCallback = typeof callbackOpportunities.$inferSelect;

const HOUR = 3_600_000;

/**
 * An unassigned call-back of "Ruth Miller" in TX at $12.50, its window two hours from a day from now in
 * Chicago, on a fresh phone. Written straight to the table: nothing is delivered or e-mailed (take it in
 * through the call-back service or the API for that).
 */
export async function createCallback(db: Database, overrides: CallbackOverrides = {}): Promise<TestCallback> {
  const phone = overrides.phone ?? uniquePhone();
  const windowStart = overrides.windowStart ?? new Date(Date.now() + 24 * HOUR);
  const [row] = await db
    .insert(callbackOpportunities)
    .values({
      id: crypto.randomUUID(),
      name: "Ruth Miller",
      email: "ruth@example.com",
      state: "TX",
      priceCents: 1250,
      kind: "callback",
      timeZone: "America/Chicago",
      windowEnd: new Date(windowStart.getTime() + 2 * HOUR),
      phoneKey: phoneKey(phone),
      optInAt: new Date(Date.now() - 60_000),
      optInUrl: "https://example.com/quote",
      ...overrides,
      phone,
      windowStart,
    })
    .returning();
  if (!row) throw new Error("the call-back was not inserted");
  return row;
}

/**
 * Money and prospect data hold under any order of events. fast-check drives random
 * sequences of pings, dialer events (any type, repeated, out of order), clock jumps (past an answer's
 * 60 s, a connected call's 4-hour hold, a day, the 30-day duplicate window), buyer pauses and resumes,
 * admin lifts, returns and admin decisions against one order, through the real services and D1, with the
 * clock passed in. After every step:
 * - the order's billable transfers ≤ what it bought + its approved transfer returns (and its counters agree);
 * - every billable transfer held a slot when it completed (read from the recorded events, not the code);
 * - the partner's payout = billable transfers × pay per transfer, less approved returns;
 * - no prospect is billed twice to one buyer within 30 days;
 * - the buyer's balance = the ledger's sum, never below 0.
 *
 * On a failure fast-check prints the counterexample and `{ seed, path }`: pass both in `REPLAY` below to
 * run exactly that case again.
 */
import { env } from "cloudflare:workers";
import { and, asc, eq, ne } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ReturnDecisionInput } from "../../../../src/features/returns/schemas/returns";
import { CONNECTED_HOLD_SECONDS, ROUTE_ANSWER_TTL_SECONDS } from "../../../../src/features/transfers/transfers";
import { createAdmin, createBuyer, createOrder, testDb, transferRow } from "../../../../tests/worker/factories";
import { createOpenOrder, createPartner, routeAtCallingHours } from "../../../../tests/worker/transfer-fixtures";
import { insertInChunks } from "../../../db/bulk-insert";
import { orderDelivery, orders, returns, systemPauses, transferEvents, transfers } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { ConflictError } from "../../../errors";
import { balanceOf } from "../../orders/balance";
import { partnerPayouts } from "../../partners/partner-portal";
import { createReturn, decideReturn } from "../../returns/returns";
import { liftSystemPause, pauseDeliveries, resumeDeliveries } from "../delivery-pauses";
import { recordTransferEvent, routeTransfer, type TransferEventInput } from "../transfers";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

/** At least 200 runs in `npm test`. */
const RUNS = 200;
/** e.g. `{ seed: 1234, path: "17:3:0" }` from a failure's output, to replay it. */
const REPLAY: { seed?: number; path?: string } = {};

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;
const PAY_CENTS = 2500;
const TRANSFER_PHONE = "2145559000";
/** Wednesday 2027-01-06, 10:00 in Chicago; the order takes calls all day, every day. */
const START = Date.UTC(2027, 0, 6, 16);
const PHONES = ["3125550101", "3125550102", "3125550103", "3125550104"];
/** Earlier billable deliveries of the buyer (another order, another partner), so the 20 % return cap allows returns. */
const HISTORY = 10;
const SITE = "http://localhost";

const EVENT_TYPES = ["connected", "completed", "no-answer", "failed"] as const;
const WAITS = [
  SECOND,
  30 * SECOND,
  (ROUTE_ANSWER_TTL_SECONDS + 1) * SECOND,
  10 * 60 * SECOND,
  (CONNECTED_HOLD_SECONDS + 60) * SECOND,
  25 * HOUR,
  31 * DAY,
];

/** What a dialer does with one caller, reported at once: the common paths, so runs reach full orders and pauses. */
const CALL_OUTCOMES = ["none", "no-answer", "failed", "connected", "billable", "short", "late"] as const;

type Action =
  | { kind: "call"; phone: number; outcome: (typeof CALL_OUTCOMES)[number]; durationSeconds: number }
  | { kind: "unanswered"; calls: number }
  | { kind: "event"; transfer: number; type: (typeof EVENT_TYPES)[number]; durationSeconds: number }
  | { kind: "wait"; ms: number }
  | { kind: "pause" }
  | { kind: "resume"; confirmNumber: boolean }
  | { kind: "lift" }
  | { kind: "return"; transfer: number }
  | { kind: "decide"; ret: number; approve: boolean };

/** Mostly the newest transfer or return (0), sometimes an older one. */
const recent = fc.oneof(fc.constant(0), fc.nat({ max: 7 }));

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("call" as const),
      phone: fc.nat({ max: PHONES.length - 1 }),
      outcome: fc.constantFrom(...CALL_OUTCOMES),
      durationSeconds: fc.integer({ min: 121, max: 900 }),
    }),
  },
  // A bad streak: several callers in a row go unanswered (the system pauses the order at three in an hour).
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("unanswered" as const), calls: fc.integer({ min: 1, max: 3 }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("event" as const),
      transfer: recent,
      type: fc.constantFrom(...EVENT_TYPES),
      durationSeconds: fc.oneof(fc.constantFrom(0, 120, 121, 185), fc.nat({ max: 600 })),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.constantFrom(...WAITS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("pause" as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("resume" as const), confirmNumber: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("lift" as const) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("return" as const), transfer: recent }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("decide" as const), ret: recent, approve: fc.boolean() }) },
);

type Partner = Awaited<ReturnType<typeof createPartner>>;
let partner: Partner;
let historyPartner: Partner;
let buyerId: string;
let adminId: string;
let historyOrderId: string;

/** A 409 is an allowed answer to any step (no route, a late event, a return past its window…); anything else fails. */
async function allowingConflict<T>(step: () => Promise<T>): Promise<T | undefined> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ConflictError) return undefined;
    throw error;
  }
}

/** Each run: no transfers, returns or pauses; the buyer's history; one fresh order of 1-3 transfers. */
async function freshRun(quantity: number): Promise<string> {
  const db = testDb();
  const history = Array.from({ length: HISTORY }, (_, i) =>
    transferRow({
      partnerId: historyPartner.id,
      orderId: historyOrderId,
      buyerUserId: buyerId,
      buyerKey: buyerId,
      firstName: "Earlier",
      lastName: "Caller",
      phone: `312555${String(9000 + i)}`,
      transferPhone: TRANSFER_PHONE,
      routedAt: new Date(START - DAY),
      optInAt: new Date(START - DAY),
      connectedAt: null,
      endedAt: new Date(START - DAY),
      buyerLocalDay: "2027-01-05",
      partnerLocalDay: "2027-01-05",
    }),
  );
  await db.batch([
    db.delete(returns),
    db.delete(transferEvents),
    db.delete(transfers),
    db.delete(systemPauses),
    db.delete(orderDelivery),
    db.delete(orders).where(and(eq(orders.userId, buyerId), ne(orders.id, historyOrderId))),
    ...insertInChunks(db, transfers, history),
  ]);
  const order = await createOpenOrder({ quantity, buyerId, paidAt: START - HOUR, transferPhone: TRANSFER_PHONE });
  return order.id;
}

interface Facts {
  total: number;
  counter: number;
  notCharged: number;
  billable: number;
  notChargedRows: number;
  approvedReturns: number;
  returned: number;
  withoutSlot: number;
  billedTwice: number;
  ledger: number;
}

/** What the invariants need, in one statement (the slot check from the recorded events, not the code's columns). */
async function facts(orderId: string): Promise<Facts> {
  // raw SQL: an oracle of its own, counted from the rows and the recorded events, not through the code under test
  const row = await env.DB.prepare(
    `SELECT d.transfers_total AS total, d.transfers_billable AS counter, d.transfers_not_charged AS notCharged,
       (SELECT count(*) FROM transfers WHERE order_id = d.order_id AND billable = 1) AS billable,
       (SELECT count(*) FROM transfers WHERE order_id = d.order_id AND status = 'completed' AND billable = 0) AS notChargedRows,
       (SELECT count(*) FROM returns WHERE order_id = d.order_id AND kind = 'transfer' AND status = 'approved') AS approvedReturns,
       (SELECT count(*) FROM transfers WHERE order_id = d.order_id AND returned_at IS NOT NULL) AS returned,
       (SELECT count(*) FROM transfers t
         JOIN transfer_events ce ON ce.transfer_id = t.id AND ce.type = 'completed'
         LEFT JOIN transfer_events cn ON cn.transfer_id = t.id AND cn.type = 'connected'
           AND cn.received_at < t.routed_at + ?1
         WHERE t.order_id = d.order_id AND t.billable = 1
           AND ce.received_at >= coalesce(cn.received_at + ?2, t.routed_at + ?1)) AS withoutSlot,
       (SELECT count(*) FROM transfers a JOIN transfers b ON a.phone = b.phone AND a.buyer_key = b.buyer_key
         AND a.id < b.id AND abs(a.routed_at - b.routed_at) < ?3
         WHERE a.billable = 1 AND b.billable = 1) AS billedTwice,
       (SELECT coalesce(sum(amount_cents), 0) FROM balance_ledger WHERE user_id = ?4) AS ledger
     FROM order_delivery d WHERE d.order_id = ?5`,
  )
    .bind(ROUTE_ANSWER_TTL_SECONDS * SECOND, CONNECTED_HOLD_SECONDS * SECOND, 30 * DAY, buyerId, orderId)
    .first<Facts>();
  if (!row) throw new Error("the order's delivery row is gone");
  return row;
}

async function checkInvariants(orderId: string, step: string) {
  checks += 1;
  const [f, payouts, balance] = await Promise.all([
    facts(orderId),
    partnerPayouts(createDeps(env), partner.profile),
    balanceOf(createDeps(env), buyerId),
  ]);
  expect(f.billable, `${step}: billable ≤ total + approved returns`).toBeLessThanOrEqual(f.total + f.approvedReturns);
  expect(f.counter, `${step}: the order's count = billable − approved returns`).toBe(f.billable - f.approvedReturns);
  expect(f.returned, `${step}: approved returns are marked on their transfers`).toBe(f.approvedReturns);
  expect(f.notCharged, `${step}: the not-charged count`).toBe(f.notChargedRows);
  expect(f.withoutSlot, `${step}: every billable transfer held a slot`).toBe(0);
  expect(f.billedTwice, `${step}: no prospect billed twice to one buyer in 30 days`).toBe(0);
  const payout = payouts.reduce((sum, line) => sum + line.amountCents, 0);
  expect(payout, `${step}: payout = billable × rate − approved returns`).toBe(
    (f.billable - f.approvedReturns) * PAY_CENTS,
  );
  expect(balance, `${step}: balance = the ledger's sum`).toBe(f.ledger);
  expect(balance, `${step}: balance never below 0`).toBeGreaterThanOrEqual(0);
}

let runs = 0;
let checks = 0;

async function run(quantity: number, actions: Action[]) {
  runs += 1;
  const orderId = await freshRun(quantity);
  let now = START;
  const transferIds: string[] = [];
  const returnIds: string[] = [];
  /** The `index`-th newest of a list (0 = the newest). */
  const pick = <T>(list: T[], index: number) =>
    list.length === 0 ? undefined : list[list.length - 1 - (index % list.length)];
  const ping = async (phone: number) => {
    const answer = await allowingConflict(() =>
      routeTransfer(createDeps(env, now), partner.owner, {
        prospect: { firstName: "Ann", lastName: "Lee", phone: PHONES[phone] ?? "", state: "TX" },
        consent: { optInAt: new Date(START - DAY).toISOString(), optInUrl: "https://example.com/quote" },
      }),
    );
    if (answer) transferIds.push(answer.transferId);
    return answer?.transferId;
  };
  const send = (id: string, event: TransferEventInput, afterMs = 0) => {
    now += afterMs;
    return allowingConflict(() =>
      recordTransferEvent(createDeps(env, now), partner.id, id, event, { siteOrigin: SITE }),
    );
  };

  for (const [index, step] of actions.entries()) {
    now += SECOND;
    // A step that cannot write (a clock jump, an event or a return with nothing to act on) leaves the
    // state as it was: the invariants read only stored facts, so they are checked after the others.
    let wrote = true;
    switch (step.kind) {
      case "call": {
        const id = await ping(step.phone);
        if (!id) break;
        const seconds = step.durationSeconds;
        if (step.outcome === "no-answer") await send(id, { type: "no-answer" }, 20 * SECOND);
        if (step.outcome === "failed") await send(id, { type: "failed" }, 5 * SECOND);
        if (["connected", "billable", "short"].includes(step.outcome))
          await send(id, { type: "connected" }, 10 * SECOND);
        if (step.outcome === "billable")
          await send(id, { type: "completed", durationSeconds: seconds }, seconds * SECOND);
        if (step.outcome === "short")
          await send(id, { type: "completed", durationSeconds: seconds % 121 }, 60 * SECOND);
        // Reported as a whole call after the answer's 60 s, never connected: the reproduction.
        if (step.outcome === "late") await send(id, { type: "completed", durationSeconds: 185 }, 246 * SECOND);
        break;
      }
      case "unanswered":
        for (let call = 0; call < step.calls; call++) {
          const id = await ping((index + call) % PHONES.length);
          if (id) await send(id, { type: "no-answer" }, 20 * SECOND);
        }
        break;
      case "event": {
        const id = pick(transferIds, step.transfer);
        if (!id) {
          wrote = false;
          break;
        }
        await send(
          id,
          step.type === "completed"
            ? { type: step.type, durationSeconds: step.durationSeconds }
            : { type: step.type as Exclude<typeof step.type, "completed"> },
        );
        break;
      }
      case "wait":
        now += step.ms;
        wrote = false;
        break;
      case "pause":
        await allowingConflict(() => pauseDeliveries(createDeps(env, now), buyerId, orderId));
        break;
      case "resume":
        await allowingConflict(() =>
          resumeDeliveries(
            createDeps(env, now),
            buyerId,
            orderId,
            step.confirmNumber ? { transferPhone: TRANSFER_PHONE } : {},
          ),
        );
        break;
      case "lift":
        await allowingConflict(() => liftSystemPause(createDeps(env, now), adminId, orderId));
        break;
      case "return": {
        // Mostly a billable transfer of the order (returnable), sometimes any (refused).
        const billable = await testDb()
          .select({ id: transfers.id })
          .from(transfers)
          .where(and(eq(transfers.orderId, orderId), eq(transfers.billable, true)))
          .orderBy(asc(transfers.routedAt));
        const id = pick(step.transfer % 2 === 0 ? billable.map((row) => row.id) : transferIds, step.transfer);
        if (!id) {
          wrote = false;
          break;
        }
        const created = await allowingConflict(() =>
          createReturn(createDeps(env, now), buyerId, {
            kind: "transfer",
            itemId: id,
            reason: "disconnected",
            reasonText: undefined,
          }),
        );
        if (created) returnIds.push(created.id);
        break;
      }
      case "decide": {
        const id = pick(returnIds, step.ret);
        if (!id) {
          wrote = false;
          break;
        }
        const decision: ReturnDecisionInput = {
          decision: step.approve ? "approved" : "denied",
          note: step.approve ? undefined : "Not a valid return.",
        };
        await allowingConflict(() => decideReturn(createDeps(env, now), adminId, id, decision, { siteOrigin: SITE }));
        break;
      }
    }
    if (wrote) await checkInvariants(orderId, `step ${index + 1} (${step.kind})`);
  }
}

describe("invariants under any order of events", () => {
  beforeAll(async () => {
    // The services e-mail buyers and partners (pauses, decisions); the development mailer prints each one.
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    partner = await createPartner({ payPerTransferCents: PAY_CENTS, dailyCallCap: 10_000 });
    historyPartner = await createPartner();
    const db = testDb();
    buyerId = (await createBuyer(db)).id;
    adminId = (await createAdmin(db)).id;
    const history = await createOrder(db, {
      quantity: HISTORY,
      userId: buyerId,
      status: "completed",
      paidAt: new Date(START - 2 * DAY),
    });
    historyOrderId = history.id;
  });
  afterAll(() => {
    vi.restoreAllMocks();
  });

  it(`holds after every step of ${RUNS} random runs`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.array(action, { minLength: 1, maxLength: 16 }), run),
      { numRuns: RUNS, ...REPLAY },
    );
    if (REPLAY.seed === undefined) {
      expect(runs).toBe(RUNS);
      expect(checks).toBeGreaterThan(RUNS);
    }
  }, 300_000);
});

/**
 * The live-transfer demo `npm start` seeds: a partner (call center) with a known local-only API key, and
 * two paid live-transfer orders of the demo buyer with their delivery settings ready, so
 * `npm run simulate:calls -- --partner <key>` has somewhere to deliver; the first already has a few
 * delivered calls (one under the 2-minute buffer) for the Lead Tracker and returns (issue 16).
 */
import { packageUnitCents } from "../src/domain/pricing.ts";
import { isBillable, localTime } from "../src/domain/transfers.ts";
import { hashApiKey, SHOWN_PREFIX_LENGTH } from "../worker/services/api-key-format.ts";
import { DEMO_BUYER, insertUserSql, type NewUser } from "./demo-data.ts";
import { insertSql } from "./lib.ts";

export const DEMO_PARTNER: NewUser = {
  username: "partner",
  password: "partner-demo-2026",
  email: "partner@example.com",
  isAdmin: false,
  firstName: "Pat",
  lastName: "Partner",
  phone: "5550100300",
  agencyName: "Sunrise Dialing LLC",
};

/** Local demo only: a fixed key so the README's two commands work on every fresh `npm start`. */
export const DEMO_PARTNER_KEY = "fel_demo_local_only_3c1f9a7e5b2d4c6e8a0f";

const userId = (username: string) => `(SELECT id FROM users WHERE username = '${username}')`;

/** SQL literal `insertSql` cannot express (a sub-select), spliced into its output. */
function withSubselect(statement: string, placeholder: string, subselect: string): string {
  return statement.replace(`'${placeholder}'`, subselect);
}

function demoOrderSql(order: {
  id: string;
  quantity: number;
  states: string[];
  hours: [number, number];
  timeZone: string;
  perDayCap: number;
  paidDaysAgo: number;
}): string[] {
  const unitCents = packageUnitCents("premium", order.quantity);
  const paidAt = Date.now() - order.paidDaysAgo * 86_400_000;
  return [
    withSubselect(
      insertSql("orders", {
        id: order.id,
        kind: "package",
        tier: "premium",
        quantity: order.quantity,
        unit_price_cents: unitCents,
        total_cents: unitCents * order.quantity,
        user_id: "__buyer__",
        email: DEMO_BUYER.email,
        details: JSON.stringify({ leadType: "Live Transfers", demo: true }),
        payment_intent_id: `pi_demo_${order.id}`,
        status: "paid",
        paid_at: paidAt,
      }),
      "__buyer__",
      userId(DEMO_BUYER.username),
    ),
    insertSql("order_delivery", {
      order_id: order.id,
      setup_status: "ready",
      transfer_phone: DEMO_BUYER.phone ?? "5550100200",
      states: JSON.stringify(order.states),
      hours_start_minute: order.hours[0],
      hours_end_minute: order.hours[1],
      time_zone: order.timeZone,
      per_day_cap: order.perDayCap,
      transfers_total: order.quantity,
    }),
    ...(order.states.length ? order.states : ["ALL"]).map((state) =>
      insertSql("order_delivery_states", { state, order_id: order.id }),
    ),
  ];
}

/** Calls already delivered to the demo buyer's first order (one under the buffer), for the Lead Tracker. */
const DEMO_DELIVERED = [
  { firstName: "Dorothy", lastName: "Hale", state: "TX", minutesAgo: 30, durationSeconds: 245, recording: true },
  { firstName: "Walter", lastName: "Price", state: "FL", minutesAgo: 180, durationSeconds: 95, recording: false },
  { firstName: "Evelyn", lastName: "Ross", state: "GA", minutesAgo: 20 * 60, durationSeconds: 410, recording: true },
  { firstName: "Harold", lastName: "Meyer", state: "OH", minutesAgo: 50 * 60, durationSeconds: 180, recording: false },
];

function demoDeliveredSql(orderId: string, partnerId: string, timeZone: string): string[] {
  const rows = DEMO_DELIVERED.map((call, i) => {
    const routedAt = Date.now() - call.minutesAgo * 60_000;
    const endedAt = routedAt + 15_000 + call.durationSeconds * 1000;
    const statement = insertSql("transfers", {
      id: crypto.randomUUID(),
      partner_id: partnerId,
      order_id: orderId,
      buyer_user_id: "__buyer__",
      buyer_key: "__buyer_key__",
      first_name: call.firstName,
      last_name: call.lastName,
      phone: `55501004${String(i).padStart(2, "0")}`,
      state: call.state,
      opt_in_at: routedAt - 3_600_000,
      opt_in_url: "https://example.com/final-expense-quote",
      transfer_phone: DEMO_BUYER.phone ?? "5550100200",
      status: "completed",
      routed_at: routedAt,
      expires_at: endedAt,
      connected_at: routedAt + 15_000,
      ended_at: endedAt,
      duration_seconds: call.durationSeconds,
      billable: isBillable(call.durationSeconds) ? 1 : 0,
      recording_url: call.recording ? `https://example.com/recordings/demo-${i + 1}.mp3` : null,
      buyer_local_day: localTime(routedAt, timeZone).day,
      partner_local_day: localTime(routedAt, "America/Chicago").day,
    });
    return withSubselect(
      withSubselect(statement, "__buyer__", userId(DEMO_BUYER.username)),
      "__buyer_key__",
      userId(DEMO_BUYER.username),
    );
  });
  const billable = DEMO_DELIVERED.filter((call) => isBillable(call.durationSeconds)).length;
  return [
    ...rows,
    `UPDATE order_delivery SET transfers_billable = ${billable}, transfers_not_charged = ${DEMO_DELIVERED.length - billable} WHERE order_id = '${orderId}';`,
  ];
}

export async function demoTransfersSql(): Promise<string[]> {
  const partnerId = crypto.randomUUID();
  const firstOrderId = crypto.randomUUID();
  return [
    await insertUserSql(DEMO_PARTNER),
    `UPDATE users SET account_type = 'partner' WHERE username = '${DEMO_PARTNER.username}';`,
    withSubselect(
      insertSql("partners", {
        id: partnerId,
        user_id: "__partner__",
        business_name: DEMO_PARTNER.agencyName ?? "",
        did_number: "5550100399",
        daily_call_cap: 500,
        pay_per_transfer_cents: 2500,
        payment_terms: "Net 15",
        time_zone: "America/Chicago",
      }),
      "__partner__",
      userId(DEMO_PARTNER.username),
    ),
    insertSql("api_keys", {
      id: crypto.randomUUID(),
      partner_id: partnerId,
      name: "Demo dialer",
      key_hash: await hashApiKey(DEMO_PARTNER_KEY),
      prefix: DEMO_PARTNER_KEY.slice(0, SHOWN_PREFIX_LENGTH),
    }),
    // Every state, around the clock: the demo works whenever it is run.
    ...demoOrderSql({
      id: firstOrderId,
      quantity: 200,
      states: [],
      hours: [0, 0],
      timeZone: "America/Chicago",
      perDayCap: 150,
      paidDaysAgo: 2,
    }),
    // Texas and Florida in Eastern business hours.
    ...demoOrderSql({
      id: crypto.randomUUID(),
      quantity: 50,
      states: ["TX", "FL"],
      hours: [9 * 60, 18 * 60],
      timeZone: "America/New_York",
      perDayCap: 25,
      paidDaysAgo: 1,
    }),
    ...demoDeliveredSql(firstOrderId, partnerId, "America/Chicago"),
  ];
}

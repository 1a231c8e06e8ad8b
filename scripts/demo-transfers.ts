/**
 * The live-transfer demo `npm start` seeds: a partner (call center) with a known local-only API key, and
 * two paid live-transfer orders of the demo buyer with their delivery settings ready, so
 * `npm run simulate:calls -- --partner <key>` has somewhere to deliver.
 */
import { packageUnitCents } from "../src/domain/pricing.ts";
import { hashApiKey, SHOWN_PREFIX_LENGTH } from "../worker/services/api-key-format.ts";
import { DEMO_BUYER, insertUserSql, type NewUser } from "./demo-data.ts";
import { insertSql } from "./lib/sql.ts";

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

export async function demoTransfersSql(): Promise<string[]> {
  const partnerId = crypto.randomUUID();
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
      id: crypto.randomUUID(),
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
  ];
}

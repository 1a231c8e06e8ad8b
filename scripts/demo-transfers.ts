/**
 * The live-transfer demo `npm start` seeds: a partner (call center) with a known local-only API key, and
 * two paid live-transfer orders of the demo buyer with their delivery settings ready, so
 * `npm run simulate:calls -- --partner <key>` has somewhere to deliver; the first already has a few
 * delivered calls (one under the 2-minute buffer) for the Lead Tracker and returns; the second has two
 * agents (docs/decisions/0071). Rows of the app's drizzle tables; scripts/seed.ts inserts them.
 */

import { localTime } from "../src/domain/time-zones.ts";
import { packageUnitCents } from "../src/features/orders/pricing.ts";
import { isBillable } from "../src/features/transfers/transfers.ts";
import type * as schema from "../worker/db/schema/index.ts";
import { hashApiKey, SHOWN_PREFIX_LENGTH } from "../worker/features/partners/api-key-format.ts";
import { DEMO_BUYER, type NewUser } from "./demo-data.ts";

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

type Row<Table extends { $inferInsert: unknown }> = Table["$inferInsert"];

/** What the live-transfer demo inserts, table by table, in an order the foreign keys accept. */
export interface DemoTransferRows {
  partners: Row<typeof schema.partners>[];
  apiKeys: Row<typeof schema.apiKeys>[];
  orders: Row<typeof schema.orders>[];
  orderDelivery: Row<typeof schema.orderDelivery>[];
  orderDeliveryStates: Row<typeof schema.orderDeliveryStates>[];
  orderAgents: Row<typeof schema.orderAgents>[];
  transfers: Row<typeof schema.transfers>[];
}

/** The agents of the demo buyer's Texas and Florida order, within its hours (Eastern). */
export const DEMO_AGENTS = [
  { name: "Maria Lopez", transferPhone: "5550100211", states: ["TX", "FL"], days: [0, 1, 2, 3, 4, 5, 6] },
  { name: "James Carter", transferPhone: "5550100212", states: ["FL"], days: [1, 2, 3, 4, 5] },
] as const;

interface DemoOrder {
  id: string;
  quantity: number;
  states: string[];
  hours: [number, number];
  timeZone: string;
  perDayCap: number;
  paidDaysAgo: number;
}

/** Calls already delivered to the demo buyer's first order (one under the buffer), for the Lead Tracker. */
const DEMO_DELIVERED = [
  { firstName: "Dorothy", lastName: "Hale", state: "TX", minutesAgo: 30, durationSeconds: 245, recording: true },
  { firstName: "Walter", lastName: "Price", state: "FL", minutesAgo: 180, durationSeconds: 95, recording: false },
  { firstName: "Evelyn", lastName: "Ross", state: "GA", minutesAgo: 20 * 60, durationSeconds: 410, recording: true },
  { firstName: "Harold", lastName: "Meyer", state: "OH", minutesAgo: 50 * 60, durationSeconds: 180, recording: false },
];

function demoDelivered(orderId: string, partnerId: string, buyerId: string, timeZone: string) {
  return DEMO_DELIVERED.map((call, i): Row<typeof schema.transfers> => {
    const routedAt = Date.now() - call.minutesAgo * 60_000;
    const endedAt = routedAt + 15_000 + call.durationSeconds * 1000;
    return {
      id: crypto.randomUUID(),
      partnerId,
      orderId,
      buyerUserId: buyerId,
      buyerKey: buyerId,
      firstName: call.firstName,
      lastName: call.lastName,
      phone: `55501004${String(i).padStart(2, "0")}`,
      state: call.state,
      optInAt: new Date(routedAt - 3_600_000),
      optInUrl: "https://example.com/final-expense-quote",
      transferPhone: DEMO_BUYER.phone ?? "5550100200",
      status: "completed",
      routedAt: new Date(routedAt),
      expiresAt: new Date(endedAt),
      connectedAt: new Date(routedAt + 15_000),
      endedAt: new Date(endedAt),
      durationSeconds: call.durationSeconds,
      billable: isBillable(call.durationSeconds),
      recordingUrl: call.recording ? `https://example.com/recordings/demo-${i + 1}.mp3` : null,
      buyerLocalDay: localTime(routedAt, timeZone).day,
      partnerLocalDay: localTime(routedAt, "America/Chicago").day,
    };
  });
}

/** The partner (whose user row is `partnerUserId`) and the demo buyer's (`buyerId`) two paid orders. */
export async function demoTransferRows(partnerUserId: string, buyerId: string): Promise<DemoTransferRows> {
  const partnerId = crypto.randomUUID();
  const orders: DemoOrder[] = [
    // Every state, around the clock: the demo works whenever it is run.
    {
      id: crypto.randomUUID(),
      quantity: 200,
      states: [],
      hours: [0, 0],
      timeZone: "America/Chicago",
      perDayCap: 150,
      paidDaysAgo: 2,
    },
    // Texas and Florida in Eastern business hours.
    {
      id: crypto.randomUUID(),
      quantity: 50,
      states: ["TX", "FL"],
      hours: [9 * 60, 18 * 60],
      timeZone: "America/New_York",
      perDayCap: 25,
      paidDaysAgo: 1,
    },
  ];
  const [first, second] = orders;
  if (!first || !second) throw new Error("the demo has orders");
  const delivered = demoDelivered(first.id, partnerId, buyerId, first.timeZone);
  const billable = delivered.filter((transfer) => transfer.billable).length;
  return {
    partners: [
      {
        id: partnerId,
        userId: partnerUserId,
        businessName: DEMO_PARTNER.agencyName ?? "",
        didNumber: "5550100399",
        dailyCallCap: 500,
        payPerTransferCents: 2500,
        paymentTerms: "Net 15",
        timeZone: "America/Chicago",
      },
    ],
    apiKeys: [
      {
        id: crypto.randomUUID(),
        partnerId,
        name: "Demo dialer",
        keyHash: await hashApiKey(DEMO_PARTNER_KEY),
        prefix: DEMO_PARTNER_KEY.slice(0, SHOWN_PREFIX_LENGTH),
      },
    ],
    orders: orders.map((order) => {
      const unitCents = packageUnitCents("premium", order.quantity);
      return {
        id: order.id,
        kind: "package",
        tier: "premium",
        quantity: order.quantity,
        unitPriceCents: unitCents,
        totalCents: unitCents * order.quantity,
        userId: buyerId,
        email: DEMO_BUYER.email,
        details: { leadType: "Live Transfers", demo: true },
        paymentIntentId: `pi_demo_${order.id}`,
        status: "paid",
        paidAt: new Date(Date.now() - order.paidDaysAgo * 86_400_000),
      };
    }),
    orderDelivery: orders.map((order) => ({
      orderId: order.id,
      setupStatus: "ready",
      transferPhone: DEMO_BUYER.phone ?? "5550100200",
      states: order.states,
      hoursStartMinute: order.hours[0],
      hoursEndMinute: order.hours[1],
      timeZone: order.timeZone,
      perDayCap: order.perDayCap,
      transfersTotal: order.quantity,
      transfersBillable: order.id === first.id ? billable : 0,
      transfersNotCharged: order.id === first.id ? delivered.length - billable : 0,
    })),
    orderDeliveryStates: orders.flatMap((order) =>
      (order.states.length ? order.states : ["ALL"]).map((state) => ({ state, orderId: order.id })),
    ),
    orderAgents: DEMO_AGENTS.map((agent) => ({
      id: crypto.randomUUID(),
      orderId: second.id,
      name: agent.name,
      transferPhone: agent.transferPhone,
      states: [...agent.states],
      timeZone: second.timeZone,
      days: [...agent.days],
      hoursStartMinute: second.hours[0],
      hoursEndMinute: second.hours[1],
    })),
    transfers: delivered,
  };
}

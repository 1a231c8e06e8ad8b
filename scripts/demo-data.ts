/**
 * The demo data `npm start` seeds into an empty local database (also used by the e2e tests), as rows of
 * the app's own drizzle tables (worker/db/schema/); scripts/seed.ts inserts them.
 */

import type { SURVEY_ROLES } from "../src/domain/survey.ts";
import { defaultTimeZone, localTime } from "../src/domain/time-zones.ts";
import { storedLead } from "../src/features/aged-leads/leads.ts";
import { windowOf } from "../src/features/callbacks/callbacks.ts";
import type { agedLeads, callbackOpportunities, orders, users } from "../worker/db/schema/index.ts";
import { hashPassword } from "../worker/features/accounts/passwords.ts";

export interface NewUser {
  username: string;
  password: string;
  email: string;
  isAdmin: boolean;
  firstName?: string;
  lastName?: string;
  phone?: string;
  agencyName?: string;
  role?: (typeof SURVEY_ROLES)[number];
}

export const DEMO_ADMIN: NewUser = {
  username: "admin",
  password: "admin-demo-2026",
  email: "admin@example.com",
  isAdmin: true,
  firstName: "Avery",
  lastName: "Admin",
  phone: "5550100100",
  agencyName: "FinalLead Connect",
};

export const DEMO_BUYER: NewUser = {
  username: "buyer",
  password: "buyer-demo-2026",
  email: "buyer@example.com",
  isAdmin: false,
  firstName: "Blake",
  lastName: "Buyer",
  phone: "5550100200",
  agencyName: "Blake Family Insurance",
  role: "Agency Owner",
};

/** A users row for `user`, its password hashed as the app hashes it. */
export async function userRow(user: NewUser): Promise<typeof users.$inferInsert> {
  return {
    id: crypto.randomUUID(),
    username: user.username,
    email: user.email,
    passwordHash: await hashPassword(user.password),
    firstName: user.firstName ?? "",
    lastName: user.lastName ?? "",
    phone: user.phone ?? "",
    agencyName: user.agencyName ?? "",
    role: user.role ?? "Insurance Agent",
    isAdmin: user.isAdmin,
  };
}

const FIRST_NAMES = [
  "Mary",
  "James",
  "Linda",
  "Robert",
  "Patricia",
  "John",
  "Barbara",
  "William",
  "Dorothy",
  "Charles",
];
const LAST_NAMES = [
  "Johnson",
  "Williams",
  "Brown",
  "Davis",
  "Miller",
  "Wilson",
  "Moore",
  "Taylor",
  "Anderson",
  "Thomas",
];
const STATES: [state: string, areaCode: string][] = [
  ["TX", "214"],
  ["FL", "305"],
  ["CA", "213"],
  ["GA", "404"],
  ["OH", "614"],
  ["NC", "704"],
  ["AZ", "602"],
  ["PA", "215"],
  ["TN", "615"],
  ["MI", "313"],
];
const DAY_MS = 86_400_000;

/** 120 leads aged 5 to 185 days, spread over ten states, so paging and the filter have data. */
export function demoLeads(now = Date.now()): (typeof agedLeads.$inferInsert)[] {
  return Array.from({ length: 120 }, (_, i) => {
    const [state, areaCode] = STATES[i % STATES.length] ?? ["TX", "214"];
    const phone = `${areaCode}555${String(1000 + i).padStart(4, "0")}`;
    const formFillTime = now - (5 + ((i * 37) % 181)) * DAY_MS - i * 60_000;
    const first = FIRST_NAMES[i % FIRST_NAMES.length] ?? "Pat";
    const last = LAST_NAMES[(i * 3) % LAST_NAMES.length] ?? "Smith";
    // Stored as an upload stores a checked lead (priced by age: no explicit price). Two in three carry
    // consent evidence; every other lead a TrustedForm certificate, every fifth a Jornaya LeadiD (product rule 39).
    const lead = storedLead({
      name: `${first} ${last}`,
      email: i % 4 === 0 ? undefined : `${first}.${last}${i}@example.com`.toLowerCase(),
      phone,
      state,
      formFillTime,
      ...(i % 3 === 0 ? {} : demoConsent(i, formFillTime)),
    });
    return {
      id: crypto.randomUUID(),
      name: lead.name,
      email: lead.email,
      phone: lead.phone,
      state: lead.state,
      areaCode: lead.areaCode,
      priceCents: lead.priceCents,
      formFillTime: lead.formFillTime === null ? null : new Date(lead.formFillTime),
      dedupeKey: lead.dedupeKey,
      optInAt: lead.optInAt === null ? null : new Date(lead.optInAt),
      optInUrl: lead.optInUrl,
      consentText: lead.consentText,
      ipAddress: lead.ipAddress,
      trustedFormUrl: lead.trustedFormUrl,
      jornayaLeadId: lead.jornayaLeadId,
      certified: lead.certified,
    };
  });
}

/** Made-up consent evidence in the formats the lead schema accepts (deterministic, so reseeding is stable). */
function demoConsent(i: number, formFillTime: number) {
  const hex = (n: number, length: number) => (n * 2654435761).toString(16).padStart(8, "0").repeat(10).slice(0, length);
  return {
    optInAt: formFillTime,
    optInUrl: "https://quotes.example.com/final-expense",
    consentText: "consent-v3: I agree to be called about final expense insurance, including by autodialer.",
    ipAddress: `203.0.113.${(i % 250) + 1}`,
    ...(i % 2 === 0 ? { trustedFormUrl: `https://cert.trustedform.com/${hex(i + 1, 40)}` } : {}),
    ...(i % 5 === 1
      ? {
          jornayaLeadId: hex(i + 7, 32)
            .toUpperCase()
            .replace(/^(.{8})(.{4})(.{4})(.{4})/, "$1-$2-$3-$4-"),
        }
      : {}),
  };
}

/**
 * The demo buyer's paid call-back order (a survey's "Call-Backs", 3 bought) with its three delivered
 * call-backs and appointments whose windows open tomorrow in each prospect's zone (docs/decisions/0058),
 * and seven unassigned ones, windows one to four days ahead, for Buy Call Backs and Buy Appointments
 * (decision 0061). The order is full, so nothing places the unassigned ones in it.
 */
export function demoCallbacks(buyerId: string, now = Date.now()) {
  const orderId = crypto.randomUUID();
  const order: typeof orders.$inferInsert = {
    id: orderId,
    kind: "survey",
    quantity: 3,
    unitPriceCents: 1500,
    totalCents: 4500,
    userId: buyerId,
    details: { leadType: "Call-Backs", totalCallbacks: 3 },
    paymentIntentId: `pi_demo_${orderId}`,
    status: "paid",
    paidAt: new Date(now - 86_400_000),
  };
  const slots = [
    { kind: "callback", from: "10:00", to: "12:00" },
    { kind: "appointment", from: "14:30" },
    { kind: "callback", from: "17:00", to: "19:00" },
    { kind: "callback", from: "09:00", to: "11:00" },
    { kind: "appointment", from: "11:15" },
    { kind: "appointment", from: "10:00", days: 2 },
    { kind: "callback", from: "13:00", to: "15:00", days: 2 },
    { kind: "appointment", from: "15:45", days: 3 },
    { kind: "callback", from: "09:30", to: "12:00", days: 3 },
    { kind: "appointment", from: "12:30", days: 4 },
  ] as const;
  const callbacks = STATES.map(([state, areaCode], i): typeof callbackOpportunities.$inferInsert => {
    const slot = slots[i] ?? slots[0];
    const timeZone = defaultTimeZone(state);
    const date = localTime(now + ("days" in slot ? slot.days : 1) * 86_400_000, timeZone).day;
    const window = windowOf(slot.kind, { date, from: slot.from, to: "to" in slot ? slot.to : undefined }, timeZone);
    const phone = `${areaCode}555${String(2000 + i)}`;
    const delivered = i < 3;
    return {
      id: crypto.randomUUID(),
      kind: slot.kind,
      name: `${FIRST_NAMES[(i + 5) % FIRST_NAMES.length]} ${LAST_NAMES[(i + 2) % LAST_NAMES.length]}`,
      email: `callback${i + 1}@example.com`,
      phone,
      phoneKey: Number(phone),
      state,
      timeZone,
      windowStart: window ? new Date(window.windowStart) : null,
      windowEnd: window ? new Date(window.windowEnd) : null,
      priceCents: 1500,
      optInAt: new Date(now - 3_600_000),
      optInUrl: "https://example.com/final-expense-quote",
      ...(delivered ? { orderId, buyerUserId: buyerId, deliveredAt: new Date(now - 600_000) } : {}),
    };
  });
  return { orders: [order], callbacks };
}

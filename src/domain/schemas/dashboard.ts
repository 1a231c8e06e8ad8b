/** Buyer dashboard requests (spec §3, §5, §7): aged-lead list and bulk purchase, call-transfer orders. */

import type { AgeRange } from "../pricing";
import { numberFromInput, requiredString } from "./common";
import { z } from "./zod";

// The rules the dashboard needs without zod live in ../dashboard (decision 0016).
export { MAX_PAGE_BUTTONS, ORDER_TRANSITIONS, parseStates } from "../dashboard";

export const AGED_LEADS_PAGE_SIZE = 50;
/** A bulk purchase reserves at most this many leads (a page is 50). */
export const MAX_BULK_PURCHASE = 1000;
export const RESERVATION_MINUTES = 15;

export const agedLeadsQuerySchema = z.object({
  page: z.coerce
    .number({ error: "Page must be a whole number" })
    .int("Page must be a whole number")
    .min(1)
    .max(100_000)
    .default(1),
  location: z.string().max(500).optional(),
});

/** A masked preview, as the marketplace shows it. */
export interface AgedLeadPreview {
  id: string;
  name: string;
  phone: string;
  state: string;
  currentAgeRange: AgeRange;
  actualAge: number | null;
  formFillTime: string | null;
  /** Dollars, as the spec names them; `priceCents` is the same price in cents. */
  currentPrice: number;
  price: number;
  priceCents: number;
}

export interface AgedLeadPage {
  items: AgedLeadPreview[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

/** A purchased lead with its full contact details (My Leads). */
export interface OwnedLead {
  id: string;
  name: string;
  email: string | null;
  phone: string;
  state: string;
  formFillTime: string | null;
  purchasedAt: string;
  orderId: string;
}

export const bulkPurchaseSchema = z.object({
  leadIds: z
    .array(z.string().min(1).max(100), { error: "Please select at least one lead to purchase." })
    .min(1, "Please select at least one lead to purchase.")
    .max(MAX_BULK_PURCHASE, `Select at most ${MAX_BULK_PURCHASE} leads at a time.`),
});

const atLeastOne = (message: string) =>
  z.preprocess(numberFromInput, z.number({ error: message }).int(message).min(1, message));

export const callTransferFormSchema = z.object({
  totalTransfers: atLeastOne("Must be at least 1 transfer"),
  callsPerDay: atLeastOne("Must be at least 1 call per day"),
  transferHours: requiredString("Please specify transfer hours", 1, 200),
  transferPhone: requiredString("Phone number must be at least 10 digits", 10, 30),
  workingStates: requiredString("Please specify working states", 1, 500),
});
export type CallTransferForm = z.infer<typeof callTransferFormSchema>;

export const callTransferOrderSchema = callTransferFormSchema.extend({
  leadType: z.literal("Live Transfers", { error: "Lead type must be Live Transfers" }).default("Live Transfers"),
  /** The order's total in dollars, as the form shows it (the per-transfer rate is also accepted). */
  price: z.number({ error: "Price must be a number in dollars" }).nonnegative(),
});

/** A live-transfer order as /admin-orders shows it (spec §3 "Transfer order (admin view)"). */
export interface TransferOrderView {
  id: string;
  kind: string;
  firstName: string;
  lastName: string;
  transferNumber: string;
  phone: string;
  email: string;
  totalTransfers: number;
  transfersPerDay: number | null;
  selectedStates: string[];
  /** Dollars. */
  totalPrice: number;
  status: "pending" | "paid" | "completed" | "cancelled";
  createdAt: string;
}

export const orderStatusChangeSchema = z.object({
  status: z.enum(["completed", "cancelled"], { error: "Status must be completed or cancelled" }),
});

/** Buyer dashboard requests (product rules 12-14, 22): aged-lead list and bulk purchase, call-transfer orders. */

import type { ConsentSummary } from "../../features/consent/consent-record";
import { MAX_RESERVED_LEADS, type OrderStatus } from "../../features/orders/orders";
import type { AgeRange } from "../../features/orders/pricing";
import type { OrderDeliveryView } from "../../features/transfers/delivery-setup";
import { checkDeliveryLimits, deliveryLimitsShape } from "../../features/transfers/schemas/delivery-limits";
import type { Callable } from "../callable";
import { ADMIN_ORDER_STATUSES } from "../dashboard";
import { PHONE_MAX_LENGTH, PHONE_MIN_DIGITS, PHONE_TOO_SHORT } from "../phone";
import { numberFromInput, pageQuerySchema, requiredString } from "./common";
import { z } from "./zod";

// The rules the dashboard needs without zod live in ../dashboard (decision 0016).
export { ORDER_TRANSITIONS, parseStates } from "../dashboard";

export const AGED_LEADS_PAGE_SIZE = 50;
/** A bulk purchase reserves at most this many leads: a buyer's one open reservation (a page is 50). */
const MAX_BULK_PURCHASE = MAX_RESERVED_LEADS;

export { RESERVATION_MINUTES } from "../../features/orders/orders";
/** My Leads pages on the server, like the marketplace. */
export const MY_LEADS_PAGE_SIZE = 50;
/** The My Leads CSV is streamed, this many leads per database read. */
export const MY_LEADS_EXPORT_CHUNK = 1000;

export const agedLeadsQuerySchema = pageQuerySchema.extend({
  location: z.string().max(500).optional(),
  /** `true`: only leads with a consent certificate (a TrustedForm URL or a Jornaya LeadiD; product rule 39). */
  certified: z
    .enum(["true", "false"], { error: "certified must be true or false" })
    .optional()
    .transform((value) => value === "true"),
  /** `true`: only leads the calling rules allow calling at the request's time (docs/decisions/0070). */
  callable: z
    .enum(["true", "false"], { error: "callable must be true or false" })
    .optional()
    .transform((value) => value === "true"),
});

/** A masked preview, as the marketplace shows it. */
interface AgedLeadPreview {
  id: string;
  name: string;
  phone: string;
  state: string;
  currentAgeRange: AgeRange;
  actualAge: number | null;
  /** The form fill date (YYYY-MM-DD): before purchase the day only, not the time (product rule 13). */
  formFillTime: string | null;
  /** Dollars, as the spec names them; `priceCents` is the same price in cents. */
  currentPrice: number;
  price: number;
  priceCents: number;
  /** Whether the lead carries a consent certificate; its URL is shown only after purchase (product rule 39). */
  certified: boolean;
  /** Its time zone and whether it may be called now or from when, at the server's clock (decision 0070). */
  callable: Callable;
}

export type AgedLeadPage = Page<AgedLeadPreview>;

/** One server page of a list. */
interface Page<T> {
  items: T[];
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
  /** Opt-in time and page and the certificates; the whole record is GET /api/my-leads/:id/consent. */
  consent: ConsentSummary;
  /** The day ('YYYY-MM-DD') its number was added to a Do Not Call list after the purchase, or null: stop calling it. */
  suppressedOn: string | null;
  /** Its time zone and whether it may be called now or from when, at the server's clock (decision 0070). */
  callable: Callable;
}

export type OwnedLeadPage = Page<OwnedLead>;

export const bulkPurchaseSchema = z.object({
  leadIds: z
    .array(z.string().min(1).max(100), { error: "Please select at least one lead to purchase." })
    .min(1, "Please select at least one lead to purchase.")
    .max(MAX_BULK_PURCHASE, `Select at most ${MAX_BULK_PURCHASE} leads at a time.`),
});

const atLeastOne = (message: string) =>
  z.preprocess(numberFromInput, z.number({ error: message }).int(message).min(1, message));

const callTransferFields = z.object({
  totalTransfers: atLeastOne("Must be at least 1 transfer"),
  callsPerDay: atLeastOne("Must be at least 1 call per day"),
  transferHours: requiredString("Please specify transfer hours", 1, 200),
  transferPhone: requiredString(PHONE_TOO_SHORT, PHONE_MIN_DIGITS, PHONE_MAX_LENGTH),
  workingStates: requiredString("Please specify working states", 1, 500),
  // The order's own limits, each optional, as the delivery settings ask them (docs/decisions/0068).
  ...deliveryLimitsShape,
});

export const callTransferFormSchema = callTransferFields.superRefine((values, context) =>
  checkDeliveryLimits(values, values.callsPerDay, context),
);
export type CallTransferForm = z.infer<typeof callTransferFormSchema>;

export const callTransferOrderSchema = callTransferFields
  .extend({
    leadType: z.literal("Live Transfers", { error: "Lead type must be Live Transfers" }).default("Live Transfers"),
    /** Spec-fixed name (call-transfer-order): the order's total in dollars, as the form shows it (or the per-transfer rate). */
    price: z.number({ error: "Price must be a number in dollars" }).nonnegative(),
  })
  .superRefine((values, context) => checkDeliveryLimits(values, values.callsPerDay, context));

/** A live-transfer order as /admin-orders shows it (product rules 45, 49). */
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
  /** Spec-fixed name (admin transfer-order view): dollars. */
  totalPrice: number;
  status: OrderStatus;
  /** When the card holder disputed the charge, and why (the provider's reason). */
  disputedAt: string | null;
  disputeReason: string | null;
  createdAt: string;
  /** Delivery settings and counts; null for orders not yet paid. */
  delivery: OrderDeliveryView | null;
}

export const orderStatusChangeSchema = z.object({
  status: z.enum(ADMIN_ORDER_STATUSES, { error: `Status must be ${ADMIN_ORDER_STATUSES.join(" or ")}` }),
});

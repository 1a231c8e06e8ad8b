/**
 * Live transfers (issue 15): the rules shared by the Worker and the browser. Pure: no I/O.
 * Enums named here are the values stored in D1 (worker/db/schema.ts).
 */

/** Who an account belongs to; admins are buyers with `is_admin` (a partner is never an admin). */
export const ACCOUNT_TYPES = ["buyer", "partner"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** What a single-use e-mailed link is for (only its SHA-256 is stored). */
export const TOKEN_PURPOSES = ["partner_invitation", "delivery_setup"] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

/** A live-transfer order's delivery settings are either still missing or complete. */
export const DELIVERY_SETUP_STATUSES = ["awaiting_setup", "ready"] as const;
export type DeliverySetupStatus = (typeof DELIVERY_SETUP_STATUSES)[number];

/** `order_delivery_states.state` for an order that takes callers from every state. */
export const ALL_STATES = "ALL";

/** A transfer's life: routed (answer given, slot held) → connected → completed, or an end without a call. */
export const TRANSFER_STATUSES = ["routed", "connected", "completed", "no_answer", "failed", "expired"] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** Events a partner's dialer reports (`POST /api/v1/transfers/:id/events`). */
export const TRANSFER_EVENT_TYPES = ["connected", "completed", "no-answer", "failed"] as const;
export type TransferEventType = (typeof TRANSFER_EVENT_TYPES)[number];

/** The US time zones a buyer's deliveries can follow (IANA names). */
export const US_TIME_ZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
] as const;
export type UsTimeZone = (typeof US_TIME_ZONES)[number];

/** Payment terms of a partner (the application's choices). */
export const PARTNER_PAYMENT_TERMS = ["Net 7", "Net 15", "Net 30"] as const;
export type PartnerPaymentTerms = (typeof PARTNER_PAYMENT_TERMS)[number];

/** An order's delivery settings; every field but `days` is needed before it can be delivered to. */
export interface DeliverySettings {
  /** Ten digits. */
  transferPhone: string | null;
  /** State codes; [] = every state. */
  states: string[];
  /** Minutes since local midnight; end < start spans midnight. */
  hoursStartMinute: number | null;
  hoursEndMinute: number | null;
  /** Weekdays (0 = Sunday … 6); null = every day. */
  days: number[] | null;
  timeZone: UsTimeZone | null;
  perDayCap: number | null;
}

/** True when an order knows where and when to deliver (its setup is 'ready'). */
export function isDeliveryComplete(settings: DeliverySettings): boolean {
  return (
    settings.transferPhone !== null &&
    settings.hoursStartMinute !== null &&
    settings.hoursEndMinute !== null &&
    settings.timeZone !== null &&
    settings.perDayCap !== null &&
    settings.perDayCap > 0
  );
}

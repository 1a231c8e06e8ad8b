/**
 * A live-transfer order's progress as the Lead Tracker and the admins' Fulfilment tab show it (its deliveries,
 * settings and pauses: product rules 21-22): the API's answer shape and the order's name. Pure: no I/O.
 */
import type { PauseView } from "./delivery-pauses";
import type { DeliverySetupStatus } from "./transfers";

export interface TrackerOrder {
  orderId: string;
  packageName: string;
  createdAt: number;
  transfersTotal: number;
  /** Billable deliveries (approved returns are given back, so not counted). */
  delivered: number;
  notCharged: number;
  remaining: number;
  todayCount: number;
  perDayCap: number | null;
  /** The order's own limits in one line (docs/decisions/0068: days, closure, per hour, at once), or null. */
  limits: string | null;
  paused: boolean;
  /** Who paused it and what lifts it (decision 0027); null while deliveries run. */
  pause: PauseView | null;
  /** Where transfers ring (ten digits), confirmed or changed when a system pause is lifted. */
  transferPhone: string | null;
  setupStatus: DeliverySetupStatus;
}

const KIND_NAMES: Record<string, string> = {
  package: "Pricing package",
  transfer: "Dashboard order",
  survey: "Survey order",
  ringcloud: "RingCloud order",
};

/** How a live-transfer order is named in the tracker and the Fulfilment tab: "50 live transfers · Premium". */
export function packageName(kind: string, tier: string | null, quantity: number): string {
  const source = tier ? tier.charAt(0).toUpperCase() + tier.slice(1).replaceAll("-", " ") : (KIND_NAMES[kind] ?? kind);
  return `${quantity} live transfer${quantity === 1 ? "" : "s"} · ${source}`;
}

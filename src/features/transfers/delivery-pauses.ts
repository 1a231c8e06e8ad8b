/**
 * Pausing a live-transfer order's deliveries (decision 0027): the buyer pauses and resumes with one click;
 * a pause the system set (too many unanswered transfers) is lifted only when the buyer confirms or changes
 * the transfer number, and a third such pause within 24 hours only by an admin. Pure: no I/O, no zod.
 */
import { NO_ANSWER_PAUSE_REASON } from "./transfers";

/** Who paused an order: its buyer, or the system after unanswered transfers (stored in `order_delivery.pause_kind`). */
export const PAUSE_KINDS = ["buyer", "no_answer"] as const;
export type PauseKind = (typeof PAUSE_KINDS)[number];

/** How a system pause was lifted (stored in `system_pauses.lifted_how`). */
export const PAUSE_LIFTS = ["number_confirmed", "number_changed", "admin"] as const;
export type PauseLift = (typeof PAUSE_LIFTS)[number];

/** The third system pause of one order within this window needs an admin to lift it. */
export const SYSTEM_PAUSES_BEFORE_ADMIN = 3;
const SYSTEM_PAUSE_ADMIN_WINDOW_HOURS = 24;
export const SYSTEM_PAUSE_ADMIN_WINDOW_MS = SYSTEM_PAUSE_ADMIN_WINDOW_HOURS * 60 * 60 * 1000;

/** The reason shown beside a paused order. */
export const PAUSE_REASONS: Record<PauseKind, string> = {
  buyer: "Paused by the buyer",
  no_answer: NO_ANSWER_PAUSE_REASON,
};

/** Why a resume is refused (the `reason` of its 409) and what the message tells the buyer to do. */
export const RESUME_REFUSALS = {
  confirm_transfer_number: `Deliveries were paused because ${NO_ANSWER_PAUSE_REASON}. Confirm or change your transfer number to resume: send it with the request, or use Resume deliveries in the Lead Tracker.`,
  needs_admin: `Deliveries were paused ${SYSTEM_PAUSES_BEFORE_ADMIN} times within ${SYSTEM_PAUSE_ADMIN_WINDOW_HOURS} hours because transfers went unanswered. Our team must review the order before it resumes: contact support and we will lift the pause with you.`,
} as const;

/** An order's pause as the buyer and the admin see it; null when deliveries run. */
export interface PauseView {
  kind: PauseKind;
  reason: string;
  /** Resuming needs the transfer number confirmed or changed (a system pause). */
  needsNumber: boolean;
  /** Only an admin can lift it. */
  needsAdmin: boolean;
}

export function pauseView(row: {
  paused: boolean;
  pauseKind: PauseKind | null;
  pausedReason: string | null;
  pauseNeedsAdmin: boolean;
}): PauseView | null {
  if (!row.paused) return null;
  const kind = row.pauseKind ?? "buyer";
  return {
    kind,
    reason: row.pausedReason ?? PAUSE_REASONS[kind],
    needsNumber: kind === "no_answer",
    needsAdmin: kind === "no_answer" && row.pauseNeedsAdmin,
  };
}

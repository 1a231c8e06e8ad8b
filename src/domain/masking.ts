/** Masked lead previews (product rules 12, 14): enough to choose, nothing to call before paying. */
import { nationalDigits } from "./phone";

/** 'Johnson' → 'J.'; nothing stays nothing. */
export function maskLastName(last: string): string {
  const initial = last.trim()[0]?.toUpperCase();
  return initial ? `${initial}.` : "";
}

/** 'Mary Johnson' → 'Mary J.'; a single name stays as it is. */
export function maskName(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const first = parts[0] ?? "";
  const last = parts.length > 1 ? parts[parts.length - 1] : undefined;
  return last ? `${first} ${maskLastName(last)}` : first;
}

/** '2145551000' → '(214) ***-****': the area code only. */
export function maskPhone(phone: string): string {
  return `(${nationalDigits(phone).slice(0, 3).padEnd(3, "*")}) ***-****`;
}

/** A live transfer's status as the buyer's tracker shows it. */
export type TrackerTransferStatus = "routed" | "connected" | "completed" | "no_answer" | "failed" | "expired";

/** The buyer sees a prospect's full name and phone only for calls that connected (paid-for prospects). */
export const CONTACT_SHOWN_STATUSES: readonly TrackerTransferStatus[] = ["connected", "completed"];

/**
 * Revocations (docs/decisions/0082): a number that was sold (an aged lead, a billed transfer, a delivered
 * call-back) reaches a shared Do Not Call list, and each buyer who bought it is told: a `lead.suppressed`
 * webhook, a daily digest e-mail and the flag in My Leads and the Lead Tracker. The rules, pure: no I/O.
 */
import { SUPPRESSION_LIST_KIND_LABELS, SUPPRESSION_LIST_KINDS } from "./suppression.ts";

/** The kinds of sold item a revocation names (`lead` is an aged lead). */
export const REVOKED_ITEM_TYPES = ["lead", "transfer", "callback"] as const;
export type RevokedItemType = (typeof REVOKED_ITEM_TYPES)[number];

/** The lists that revoke: every shared list (a buyer's private list is the buyer's own news). */
export const REVOKING_LIST_KINDS = SUPPRESSION_LIST_KINDS.filter((kind) => kind !== "buyer_private") as [
  Exclude<(typeof SUPPRESSION_LIST_KINDS)[number], "buyer_private">,
  ...Exclude<(typeof SUPPRESSION_LIST_KINDS)[number], "buyer_private">[],
];
export type RevokingListKind = (typeof REVOKING_LIST_KINDS)[number];

const DAY_MS = 86_400_000;
/** Items sold longer ago than this are not told of (5 years of 365 days and a leap day). */
export const REVOCATION_LOOK_BACK_MS = (5 * 365 + 1) * DAY_MS;

/** The earliest sale (epoch ms) a revocation at `now` still reaches. */
export const revocationSince = (now: number) => now - REVOCATION_LOOK_BACK_MS;

/** The UTC day ('YYYY-MM-DD') a revocation belongs to in the daily digest. */
export const revocationDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The digest of `day` goes out once that UTC day has ended, and no later than this many days after. */
export const DIGEST_LOOK_BACK_DAYS = 2;

/** The days whose digests may go out at `now`: the last few ended UTC days, oldest first. */
export function digestDays(now: number): string[] {
  const today = Math.floor(now / DAY_MS);
  return Array.from({ length: DIGEST_LOOK_BACK_DAYS }, (_, i) =>
    revocationDay((today - DIGEST_LOOK_BACK_DAYS + i) * DAY_MS),
  );
}

const ITEM_LABELS: Record<RevokedItemType, string> = { lead: "Lead", transfer: "Transfer", callback: "Call-back" };

/** One line of the digest: "Lead 5b0c4c5e, (214) ***-****: National Do Not Call Registry". */
export const revocationLine = (item: {
  itemType: RevokedItemType;
  itemId: string;
  phone: string;
  listKind: RevokingListKind;
}) =>
  `${ITEM_LABELS[item.itemType]} ${item.itemId.slice(0, 8)}, ${item.phone}: ${SUPPRESSION_LIST_KIND_LABELS[item.listKind]}`;

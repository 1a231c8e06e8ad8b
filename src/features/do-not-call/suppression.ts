/**
 * Suppression (Do Not Call) lists (product rule 40): their kinds, the 31-day freshness rule, the
 * partner API's refusal, and the number key every list, lead and ping is compared by. Pure: no I/O. The
 * file formats are suppression-file.ts; the /do-not-call form and the list upload are schemas/suppression.ts.
 */
import { usPhoneKey } from "../../domain/phone.ts";

/**
 * Where a list comes from. `internal_dnc` is the shop's own list (the /do-not-call page and the admin);
 * `buyer_private` belongs to one buyer and scrubs only what that buyer is shown and sold.
 */
export const SUPPRESSION_LIST_KINDS = [
  "national_dnc",
  "state_dnc",
  "litigator",
  "internal_dnc",
  "buyer_private",
] as const;
export type SuppressionListKind = (typeof SUPPRESSION_LIST_KINDS)[number];

export const SUPPRESSION_LIST_KIND_LABELS: Record<SuppressionListKind, string> = {
  national_dnc: "National Do Not Call Registry",
  state_dnc: "State Do Not Call list",
  litigator: "Litigator list",
  internal_dnc: "Do Not Call requests to us",
  buyer_private: "Buyer's private list",
};

/**
 * The kinds an admin uploads as files to D1 (the shop's own list grows from requests; buyers upload their
 * own; national and state lists load as registry copies: registry-scopes.ts, docs/decisions/0084).
 */
export const ADMIN_UPLOAD_LIST_KINDS = ["litigator"] as const satisfies readonly SuppressionListKind[];

/** Whether a list scrubs every buyer's leads, or only its owner's (`buyer_private`). */
export const isSharedList = (kind: SuppressionListKind) => kind !== "buyer_private";

// ——— Freshness: sellers must re-scrub at least every 31 days ———

export const LIST_FRESHNESS_DAYS = 31;

/**
 * Lists copied from an outside source go stale; the shop's own requests are written the moment they are
 * made, and a buyer's private list is the buyer's to keep.
 */
const FRESHNESS_RULE_KINDS: readonly SuppressionListKind[] = ["national_dnc", "state_dnc", "litigator"];

const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A 'YYYY-MM-DD' day as the epoch milliseconds of its start (UTC), or null when it is no calendar day. */
export function dayStart(day: string): number | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(time).toISOString().slice(0, 10) === day ? time : null;
}

/** Whole days from the refreshed-on day to `now`'s day (UTC), or null for a day that is not one. */
export function listAgeDays(refreshedOn: string, now: number): number | null {
  const start = dayStart(refreshedOn);
  return start === null ? null : Math.floor((now - start) / DAY_MS);
}

/**
 * A list refreshed on `refreshedOn` is stale once more than 31 days have passed: refreshed on 1 January, it
 * is fresh through 1 February and stale from 2 February. A refreshed-on day that cannot be read is stale
 * (a list of unknown age cannot be trusted). Kinds without the rule are never stale.
 */
export function isListStale(refreshedOn: string, now: number, kind: SuppressionListKind = "national_dnc"): boolean {
  if (!FRESHNESS_RULE_KINDS.includes(kind)) return false;
  const age = listAgeDays(refreshedOn, now);
  return age === null || age > LIST_FRESHNESS_DAYS;
}

/** The last day a list refreshed on `refreshedOn` is fresh ('YYYY-MM-DD'), for "refresh by …"; null for a bad day. */
export function freshUntil(refreshedOn: string): string | null {
  const start = dayStart(refreshedOn);
  return start === null ? null : new Date(start + LIST_FRESHNESS_DAYS * DAY_MS).toISOString().slice(0, 10);
}

/** What the admin area shows beside a stale list. */
export const staleListMessage = (refreshedOn: string) =>
  `Refreshed on ${refreshedOn}: more than ${LIST_FRESHNESS_DAYS} days ago. Upload a fresh copy.`;

// ——— Refusals ———

// The ping's `suppressed` answer lives in its own small module: the transfer views read it without loading
// the list rules.
export { SUPPRESSED_MESSAGE, SUPPRESSED_NO_ROUTE, SUPPRESSED_REASON } from "./suppressed-answer.ts";

/** A reservation or a sale refused because a lead's number was suppressed after it was listed. */
export const SUPPRESSED_LEAD_MESSAGE =
  "A lead you selected is no longer available: its number was added to a Do Not Call list.";

/** My Leads and the Lead Tracker flag a number suppressed after purchase so the buyer stops calling. */
export const suppressedAfterPurchaseLabel = (day: string) => `Added to Do Not Call on ${day}`;

// ——— The number key ———

/** Keys are 10-digit US numbers as integers: 2000000000 … 9999999999, well inside a JS number and SQLite's INTEGER. */
export const PHONE_KEY_MIN = 2_000_000_000;
export const PHONE_KEY_MAX = 9_999_999_999;

/**
 * A phone as the integer every list, lead and ping is compared by, or null when it is no US number. The
 * same rule as `normalizeUsPhone` (a leading country code 1 dropped, the area code starting 2-9), so a
 * number a partner can ping for is a number a list can hold.
 */
export const phoneKey = (text: string): number | null => usPhoneKey(text);

/** A key back to its 10 digits. */
export const phoneFromKey = (key: number) => String(key);

export const isPhoneKey = (value: number) =>
  Number.isInteger(value) && value >= PHONE_KEY_MIN && value <= PHONE_KEY_MAX;

// ——— The /do-not-call form ———

export const DO_NOT_CALL_LIMITS = { reasonLength: 500 } as const;

export const DO_NOT_CALL_MESSAGES = {
  phone: "Enter the 10-digit US phone number that should not be called",
  email: "Enter a valid email address, or leave it empty",
  reason: `Reason must be at most ${DO_NOT_CALL_LIMITS.reasonLength} characters`,
} as const;

/** What the page says once the number is suppressed (it is, everywhere, at once). */
export const doNotCallConfirmation = (phone: string) =>
  `Done: ${phone} is on our Do Not Call list. We no longer sell it or route calls to it, and buyers who already have it see it flagged.`;

// ——— Storage: lists, uploads, the record of each sale's checks ———

/** A list is never deleted outright: `deleting` while its numbers are removed, then `deleted` (a sale's record keeps its name). */
export const SUPPRESSION_LIST_STATUSES = ["active", "deleting", "deleted"] as const;
export type SuppressionListStatus = (typeof SUPPRESSION_LIST_STATUSES)[number];

/**
 * An upload: `receiving` while the browser sends batches, `applying` once it said the file ended (every
 * batches and, for a full list that replaces one, the removal of the numbers it no longer holds), then
 * `done`, or `failed` when a batch kept failing, a newer upload replaced it, or it expired unfinished.
 * Nothing of it reaches the list before `applying` (docs/decisions/0051).
 */
export const SUPPRESSION_UPLOAD_STATUSES = ["receiving", "applying", "done", "failed"] as const;
export type SuppressionUploadStatus = (typeof SUPPRESSION_UPLOAD_STATUSES)[number];

/** What a suppression check record belongs to: an aged-lead order (its leads) or a routed transfer. */
export const SUPPRESSION_CHECK_SUBJECTS = ["order", "transfer"] as const;
export type SuppressionCheckSubject = (typeof SUPPRESSION_CHECK_SUBJECTS)[number];

/** Numbers per uploaded batch: about 110 KB of JSON, one R2 object and one Queue message each. */
export const SUPPRESSION_BATCH_NUMBERS = 10_000;

/** A number's `added_on` is stored as whole days since 1970-01-01 (UTC): two bytes, not six. */
export const dayNumber = (time: number) => Math.floor(time / DAY_MS);
/** A stored day number as 'YYYY-MM-DD'. */
export const dayOfNumber = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

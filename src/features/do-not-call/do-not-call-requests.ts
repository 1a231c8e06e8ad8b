/**
 * Requests made on /do-not-call, as the admins watch them (product rule 40, docs/decisions/0055): anyone
 * may ask, with no verification, so the shop keeps what makes a misuse visible (when, a hash of where
 * from, which browser), alerts the admins to a burst, and lets an admin take a number back off its own
 * list with a logged reason. Pure: no I/O.
 */

/** A burst: more than this many distinct numbers requested within BURST_WINDOW_MS, from all addresses together. */
export const BURST_NUMBERS = 100;
/** An hour: the burst's window, and the least time between two burst e-mails. */
export const BURST_WINDOW_MS = 60 * 60 * 1000;

/** What is kept of a request's user agent (enough to tell browsers and scripts apart). */
export const USER_AGENT_MAX_LENGTH = 200;
/** Hex characters of a client hash the admin area shows: enough to tell addresses apart, short enough to read. */
export const CLIENT_HASH_SHOWN = 12;

export const DO_NOT_CALL_REQUESTS_PAGE_SIZE = 25;
export const REMOVAL_REASON_MAX_LENGTH = 500;

export const DO_NOT_CALL_REMOVAL_MESSAGES = {
  phone: "Enter the 10-digit US phone number to look for",
  reason: "Say why the number comes off the list (the reason is logged)",
  reasonLength: `The reason must be at most ${REMOVAL_REASON_MAX_LENGTH} characters`,
  notListed: (phone: string) => `${phone} is not on our Do Not Call request list: nothing was changed.`,
  removed: (phone: string) =>
    `${phone} is off our Do Not Call request list. Its unsold leads are for sale again unless another list holds it.`,
} as const;

/** The admin tab that lists the requests (the burst e-mail links to it). */
export const DO_NOT_CALL_REQUESTS_PATH = "/admin?tab=dnc-requests";

/** Phones are written by src/domain/format.ts (one formatting module). */
export { formatPhoneKey } from "../../domain/format.ts";

/** One request as the admin area lists it. */
export interface DoNotCallRequestView {
  id: string;
  /** 10 digits. */
  phone: string;
  email: string | null;
  reason: string | null;
  createdAt: number;
  /** The first CLIENT_HASH_SHOWN characters of the client hash (null for requests made before it was kept). */
  client: string | null;
  userAgent: string | null;
  /** The number is on the shop's own list now. */
  listed: boolean;
  /** The latest removal of the number after this request, if any: who, when and why. */
  removal: { at: number; by: string | null; reason: string } | null;
}

export interface DoNotCallRequestPage {
  requests: DoNotCallRequestView[];
  /** Requests that match (every page). */
  count: number;
  page: number;
  pageSize: number;
}

/**
 * A stale registry copy stops what it covers (product rule 40; docs/decisions/0085-a-stale-registry-stops-calls.md).
 * The National Do Not Call Registry copy covers every US number; a state's copy covers the numbers of
 * prospects in that state. Once the newest active copy of a scope is stale (isListStale: more than 31 days
 * old), nothing it covers is sold, delivered or routed, and each refusal says why in its own words below;
 * from day 25 the admins see a banner and get an e-mail a day. Pure: no I/O.
 */
import {
  dayNumber,
  dayOfNumber,
  dayStart,
  freshUntil,
  isListStale,
  LIST_FRESHNESS_DAYS,
  listAgeDays,
} from "./suppression.ts";

/** From this many days after its refresh, a copy's admins are warned (the banner and a daily e-mail). */
const REGISTRY_WARNING_DAYS = 25;

/**
 * The newest active copy of one scope: `state` null for the national registry, else the state's two
 * letters. `refreshedOn` null when no copy of the scope says when it was refreshed (stale: unknown age).
 */
export interface RegistryCopy {
  state: string | null;
  refreshedOn: string | null;
}

/** Whether a copy is stale at `now` (a copy without a readable refreshed-on day is). */
export const isCopyStale = (copy: RegistryCopy, now: number) =>
  copy.refreshedOn === null || isListStale(copy.refreshedOn, now, "national_dnc");

/**
 * The oldest refreshed-on day ('YYYY-MM-DD') still fresh at `now`: a copy refreshed before it is stale. The
 * SQL form of isListStale (list-freshness.ts in the Worker compares `refreshed_on < cutoff`).
 */
export const freshCutoff = (now: number) => dayOfNumber(dayNumber(now) - LIST_FRESHNESS_DAYS);

/** The first day a copy refreshed on `refreshedOn` is stale ('YYYY-MM-DD'), or null for a day that is none. */
export function staleFrom(refreshedOn: string): string | null {
  const last = freshUntil(refreshedOn);
  const start = last === null ? null : dayStart(last);
  return start === null ? null : dayOfNumber(dayNumber(start) + 1);
}

/**
 * The stale copy that covers a number of a prospect in `state` at `now` (the national one first), or null
 * when every copy that covers it is fresh or none was loaded (docs/decisions/0085: a copy never loaded
 * stops nothing; the banner says so).
 */
export function staleCopyFor(copies: readonly RegistryCopy[], state: string | null, now: number): RegistryCopy | null {
  const national = copies.find((copy) => copy.state === null);
  if (national && isCopyStale(national, now)) return national;
  const upper = state?.toUpperCase() ?? null;
  const own = upper === null ? undefined : copies.find((copy) => copy.state === upper);
  return own && isCopyStale(own, now) ? own : null;
}

/** The copies that are stale at `now`, national first. */
export const staleCopies = (copies: readonly RegistryCopy[], now: number) =>
  copies.filter((copy) => isCopyStale(copy, now)).sort((a, b) => (a.state ?? "").localeCompare(b.state ?? ""));

// ——— Refusals: one text each ———

/** The partner API's 409 when the copy covering the caller is stale (spread into NO_ROUTE_REASONS). */
export const REGISTRY_STALE_REASON = "registry_stale";
export const REGISTRY_STALE_MESSAGE = `Our Do Not Call registry copy for this caller's number is more than ${LIST_FRESHNESS_DAYS} days old, so we route no calls to it until a fresh copy is loaded. This ping does not count against your daily calls.`;
export const REGISTRY_STALE_NO_ROUTE = { [REGISTRY_STALE_REASON]: REGISTRY_STALE_MESSAGE } as const;

/** A reservation or an aged-lead sale refused for a lead a stale copy covers. */
export const REGISTRY_STALE_LEAD_MESSAGE = `A lead you selected can't be bought right now: our Do Not Call registry copy for its number is more than ${LIST_FRESHNESS_DAYS} days old. Sales resume once a fresh copy is loaded.`;

/** A call-back purchase refused (and refunded) for a number a stale copy covers. */
export const REGISTRY_STALE_CALLBACK_MESSAGE = `This call-back can't be bought right now: our Do Not Call registry copy for its number is more than ${LIST_FRESHNESS_DAYS} days old. Sales resume once a fresh copy is loaded.`;

/** Why a waiting call-back is not delivered to an order now (the admin's call-back view shows it). */
export const REGISTRY_STALE_HELD = `Held: our Do Not Call registry copy for its number is more than ${LIST_FRESHNESS_DAYS} days old. It is delivered once a fresh copy is loaded.`;

const andList = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;

/** What the marketplace tells buyers while stale copies stop sales, or null when none does. */
export function marketplaceStopNotice(stale: readonly RegistryCopy[]): string | null {
  if (stale.length === 0) return null;
  if (stale.some((copy) => copy.state === null)) {
    return `Leads can't be bought right now: our copy of the National Do Not Call Registry is more than ${LIST_FRESHNESS_DAYS} days old. Sales resume once a fresh copy is loaded.`;
  }
  const states = andList(stale.map((copy) => copy.state ?? ""));
  return `Leads in ${states} can't be bought right now: our copy of ${stale.length === 1 ? "that state's" : "those states'"} Do Not Call list is more than ${LIST_FRESHNESS_DAYS} days old. Sales resume once a fresh copy is loaded.`;
}

// ——— The admins' banner and e-mail ———

const copyName = (copy: RegistryCopy) =>
  copy.state === null ? "The National Do Not Call Registry copy" : `The ${copy.state} Do Not Call list copy`;

/** One line of the admins' banner and e-mail about one copy: warned from day 25, stopped once stale. */
export function copyNotice(copy: RegistryCopy, now: number): { stale: boolean; text: string } | null {
  if (copy.refreshedOn === null || listAgeDays(copy.refreshedOn, now) === null) {
    return {
      stale: true,
      text: `${copyName(copy)} has no refreshed-on day: sales it covers are stopped. Upload a fresh copy.`,
    };
  }
  const age = listAgeDays(copy.refreshedOn, now) ?? 0;
  if (age < REGISTRY_WARNING_DAYS) return null;
  const from = staleFrom(copy.refreshedOn);
  const covered = copy.state === null ? "every number" : `numbers in ${copy.state}`;
  if (isCopyStale(copy, now)) {
    return {
      stale: true,
      text: `${copyName(copy)} was refreshed on ${copy.refreshedOn} and went stale on ${from}: sales stopped, with call-back deliveries and live transfers, for ${covered}. Upload a fresh copy.`,
    };
  }
  return {
    stale: false,
    text: `${copyName(copy)} was refreshed on ${copy.refreshedOn}; it goes stale on ${from}: upload a fresh copy.`,
  };
}

/** What the admins are told when no national copy was ever loaded (banner only: docs/decisions/0085). */
export const NO_NATIONAL_COPY_NOTICE =
  "No National Do Not Call Registry copy has been loaded: sales are not checked against the registry. Upload a copy.";

/** The admins' banner at `now`: a line per copy from day 25, and one when no national copy exists; null when all is well. */
export function registryBanner(
  copies: readonly RegistryCopy[],
  now: number,
): { stale: boolean; lines: string[] } | null {
  const notices = copies.flatMap((copy) => copyNotice(copy, now) ?? []);
  const missing = !copies.some((copy) => copy.state === null);
  if (notices.length === 0 && !missing) return null;
  const sorted = [...notices].sort((a, b) => Number(b.stale) - Number(a.stale));
  return {
    stale: notices.some((notice) => notice.stale),
    lines: [...(missing ? [NO_NATIONAL_COPY_NOTICE] : []), ...sorted.map((notice) => notice.text)],
  };
}

/** What a page shows of the registry's freshness: the admins' banner on admin pages, the marketplace's stop. */
export interface RegistryPageNotices {
  banner: { stale: boolean; lines: string[] } | null;
  market: string | null;
}

/** The admin pages (/admin and /admin/…) carry the banner; the aged-lead marketplace (/dashboard) the stop. */
export const registryNoticePlaces = (path: string, isAdmin: boolean) => ({
  banner: isAdmin && /^\/admin(\/|$)/.test(path),
  market: path === "/dashboard" || path === "/dashboard/",
});

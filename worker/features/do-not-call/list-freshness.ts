/**
 * A stale registry copy stops what it covers (product rule 40; docs/decisions/0085-a-stale-registry-stops-calls.md):
 * the rule is src/features/do-not-call/list-freshness.ts; here it reads the copies and stops each path with
 * one call — the ping, an aged-lead reservation and sale, a call-back purchase, sale and delivery — and
 * tells the admins (the banner's data, a daily e-mail from day 25).
 *
 * The copies are read per call (suppression_lists has a handful of rows), the ping's inside its routing
 * statement: an upload that refreshes a copy lifts the stop at once. Sales also carry the rule as SQL
 * (`staleRegistryCoversSql`) in the statement that sells, so a copy that goes stale at midnight between the
 * read and the sale still stops it.
 */
import { eq, type SQL, sql } from "drizzle-orm";
import {
  copyNotice,
  freshCutoff,
  marketplaceStopNotice,
  REGISTRY_STALE_CALLBACK_MESSAGE,
  REGISTRY_STALE_HELD,
  REGISTRY_STALE_LEAD_MESSAGE,
  REGISTRY_STALE_MESSAGE,
  REGISTRY_STALE_REASON,
  type RegistryCopy,
  type RegistryPageNotices,
  registryBanner,
  registryNoticePlaces,
  staleCopies,
  staleCopyFor,
} from "../../../src/features/do-not-call/list-freshness";
import { agedLeads, callbackOpportunities, registryFreshnessAlerts, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError } from "../../errors";
import { emails } from "../../services/email-templates";
import { sendMail, siteOrigin } from "../../services/mail";

/** The admin page that takes a fresh copy. */
const UPLOAD_PATH = "/admin/do-not-call";

/**
 * The newest active copy of each scope: one row for the national registry (`state` null), one per state.
 * A state list without its state (loaded before migration 0045) covers no state it could name: left out.
 */
async function registryCopies(deps: Pick<Deps, "db">): Promise<RegistryCopy[]> {
  return deps.db.all<RegistryCopy>(sql`
    SELECT CASE WHEN kind = 'national_dnc' THEN NULL ELSE upper(state) END AS state, max(refreshed_on) AS refreshedOn
    FROM suppression_lists
    WHERE status = 'active' AND (kind = 'national_dnc' OR (kind = 'state_dnc' AND state IS NOT NULL))
    GROUP BY 1`);
}

/**
 * SQL: a stale copy covers a prospect of the state `state` (an SQL expression, e.g. a row's state column)
 * at `now`: the newest active national copy, or the newest of that state's, was refreshed before the cutoff.
 */
const staleRegistryCoversSql = (state: SQL, now: number) =>
  sql`EXISTS (SELECT 1 FROM suppression_lists rc WHERE rc.status = 'active'
    AND (rc.kind = 'national_dnc' OR (rc.kind = 'state_dnc' AND rc.state = upper(${state})))
    GROUP BY rc.kind HAVING coalesce(max(rc.refreshed_on), '') < ${freshCutoff(now)})`;

/** The stale copy covering a prospect in `state` now, or null. */
async function staleCopyCovering(deps: Pick<Deps, "db" | "now">, state: string | null) {
  return staleCopyFor(await registryCopies(deps), state, deps.now);
}

// ——— The ping ———

/**
 * SQL for the ping's routing statement: a stale copy covers a prospect of `state` now (1, else 0). Asked in
 * the statement that routes (no read of its own on the ping's path); `refuseRegistryStale` answers it.
 */
export const pingRegistryStaleSql = (state: string, now: number) => staleRegistryCoversSql(sql`${state}`, now);

/** Refuses a ping whose caller a stale copy covers: the 409 `registry_stale` (no daily call used). */
export function refuseRegistryStale(): never {
  throw new ConflictError(REGISTRY_STALE_MESSAGE, { reason: REGISTRY_STALE_REASON });
}

// ——— Aged leads ———

const idsIn = (ids: readonly string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/** The ids among `leadIds` whose state a stale copy covers now. */
async function coveredLeadIds(deps: Pick<Deps, "db" | "now">, leadIds: readonly string[]): Promise<string[]> {
  const copies = await registryCopies(deps);
  if (staleCopies(copies, deps.now).length === 0 || leadIds.length === 0) return [];
  const rows = await deps.db.all<{ id: string; state: string }>(
    sql`SELECT id, state FROM aged_leads WHERE id IN ${idsIn(leadIds)}`,
  );
  return rows.filter((row) => staleCopyFor(copies, row.state, deps.now)).map((row) => row.id);
}

/** Before a reservation: refuses the whole selection when a stale copy covers one of its leads. */
export async function refuseStaleRegistryLeads(deps: Pick<Deps, "db" | "now">, leadIds: readonly string[]) {
  const covered = await coveredLeadIds(deps, leadIds);
  if (covered.length > 0) {
    throw new ConflictError(REGISTRY_STALE_LEAD_MESSAGE, { reason: REGISTRY_STALE_REASON, unavailable: covered });
  }
}

/** SQL for an aged-lead sale's batch: none of these leads is covered by a stale copy at `now`. */
export const noLeadCoveredByStaleRegistry = (leadIds: readonly string[], now: number) =>
  sql`NOT EXISTS (SELECT 1 FROM aged_leads sl WHERE sl.id IN ${idsIn(leadIds)}
    AND ${staleRegistryCoversSql(sql`sl.state`, now)})`;

/** SQL for an aged_leads row: no stale copy covers its state at `now` (a bundle takes only such leads). */
export const leadNotCoveredSql = (now: number) => sql`NOT ${staleRegistryCoversSql(sql`${agedLeads.state}`, now)}`;

/** Why a paid aged-lead order was not sold (and is refunded), when a stale copy is the reason; else null. */
export async function staleRegistryLeadRefusal(deps: Pick<Deps, "db" | "now">, leadIds: readonly string[]) {
  return (await coveredLeadIds(deps, leadIds)).length > 0 ? `${REGISTRY_STALE_LEAD_MESSAGE} Refunded.` : null;
}

/** What the marketplace says while stale copies stop sales, or null. */
export async function marketplaceRegistryNotice(deps: Pick<Deps, "db" | "now">): Promise<string | null> {
  return marketplaceStopNotice(staleCopies(await registryCopies(deps), deps.now));
}

// ——— Call-backs ———

/** SQL for a call-back row: its prospect's state is not covered by a stale copy at `now`. */
export const callbackNotCoveredSql = (state: SQL, now: number) => sql`NOT ${staleRegistryCoversSql(state, now)}`;

async function callbackCovered(deps: Pick<Deps, "db" | "now">, callbackId: string): Promise<boolean> {
  const [row] = await deps.db
    .select({ state: callbackOpportunities.state })
    .from(callbackOpportunities)
    .where(eq(callbackOpportunities.id, callbackId));
  return row ? (await staleCopyCovering(deps, row.state)) !== null : false;
}

/** Before a call-back purchase starts: refused when a stale copy covers its prospect. */
export async function refuseStaleRegistryCallback(deps: Pick<Deps, "db" | "now">, callbackId: string) {
  if (await callbackCovered(deps, callbackId)) {
    throw new ConflictError(REGISTRY_STALE_CALLBACK_MESSAGE, { reason: REGISTRY_STALE_REASON });
  }
}

/** Why a paid call-back order was not sold (it is refunded), when a stale copy is the reason; else null. */
export async function staleRegistryCallbackRefusal(deps: Pick<Deps, "db" | "now">, callbackId: string) {
  return (await callbackCovered(deps, callbackId)) ? REGISTRY_STALE_CALLBACK_MESSAGE : null;
}

/** Why a call-back is held back from delivery to an order now (placed once a fresh copy is loaded), or null. */
export async function registryDeliveryHold(deps: Pick<Deps, "db" | "now">, state: string): Promise<string | null> {
  return (await staleCopyCovering(deps, state)) ? REGISTRY_STALE_HELD : null;
}

// ——— The admins ———

/** The banner every admin page shows (null when every copy is younger than 25 days). */
export async function adminRegistryBanner(deps: Pick<Deps, "db" | "now">) {
  return registryBanner(await registryCopies(deps), deps.now);
}

/**
 * The cron's daily e-mail to every admin while a copy is 25 days old or more (stale ones included): the
 * day's row is claimed first, so two runs of one day send it once. Answers how many e-mails were sent.
 */
export async function sendRegistryFreshnessAlerts(deps: Deps): Promise<number> {
  const notices = (await registryCopies(deps)).flatMap((copy) => copyNotice(copy, deps.now) ?? []);
  if (notices.length === 0) return 0;
  const day = new Date(deps.now).toISOString().slice(0, 10);
  const stale = notices.filter((notice) => notice.stale).length;
  const claimed = await deps.db
    .insert(registryFreshnessAlerts)
    .values({ day, sentAt: deps.now, copies: notices.length, stale })
    .onConflictDoNothing()
    .returning({ day: registryFreshnessAlerts.day });
  if (claimed.length === 0) return 0;
  const admins = await deps.db.select({ email: users.email }).from(users).where(eq(users.isAdmin, true));
  const email = emails.registryFreshness(siteOrigin(deps), {
    stale: stale > 0,
    lines: notices.map((notice) => notice.text),
    path: UPLOAD_PATH,
  });
  const sent = await Promise.allSettled(admins.map((admin) => sendMail(deps, admin.email, email)));
  for (const result of sent) {
    if (result.status === "rejected") console.error("Registry freshness e-mail not sent", result.reason);
  }
  return sent.filter((result) => result.status === "fulfilled").length;
}

/** The notices of one server-rendered page for `user` (one small read, only on the pages that show one). */
export async function registryPageNotices(
  deps: Pick<Deps, "db" | "now">,
  user: { isAdmin: boolean } | null,
  path: string,
): Promise<RegistryPageNotices | null> {
  if (!user) return null;
  const places = registryNoticePlaces(path, user.isAdmin);
  if (!places.banner && !places.market) return null;
  const copies = await registryCopies(deps);
  return {
    banner: places.banner ? registryBanner(copies, deps.now) : null,
    market: places.market ? marketplaceStopNotice(staleCopies(copies, deps.now)) : null,
  };
}

/**
 * The aged-lead marketplace list (product rules 12-14), built to stay fast at a million leads
 * (docs/decisions/0012): totals come from the per-state counts table, pages from partial indexes over
 * listed leads, newest first, with the location filter turned into exact index keys. "Callable now"
 * (docs/decisions/0070) is decided per key of the counts table: an aged lead's calling rules depend only on
 * its state and its number's area code, so the page query tests a list of keys, never a row's clock. My
 * Leads is in owned-leads.ts.
 */

import { maskName, maskPhone } from "../../../src/domain/masking";
import { AGED_LEADS_PAGE_SIZE, type AgedLeadPage } from "../../../src/domain/schemas/dashboard";
import {
  keysMatch,
  type LocationTerm,
  locationKeys,
  parseLocationFilter,
} from "../../../src/features/aged-leads/location-filter";
import type { AgeRange } from "../../../src/features/orders/index";
import type { Deps } from "../../deps";
import { callableMemo } from "../transfers/index";
import { priceLead } from "./leads";

/**
 * Listed (unsold, not withheld: docs/decisions/0041, not suppressed by a shared list: decision 0042: the
 * listing indexes' predicate) and not held by a reservation that is still running (?1 = now). The running
 * reservations are read once per query into a set the listing index is checked against, so the listing
 * indexes need no `reserved_until` and reserving 200 leads does not rewrite 600 of their entries. The
 * predicates repeat the partial indexes' own. The same for every buyer: a buyer's private Do Not Call list
 * changes neither the page nor its counts (it applies when an order is paid, docs/decisions/0049), so it
 * cannot be used to learn a masked number.
 */
const LISTED = "sold_at IS NULL AND withheld = 0 AND suppressed_at IS NULL";
const AVAILABLE = `${LISTED} AND rowid NOT IN (
  SELECT rowid FROM aged_leads INDEXED BY aged_leads_reservations_idx WHERE ${LISTED} AND reserved_until >= ?1)`;
/** "With certificate" (`hasConsentCertificate`, stored as `certified`), literal so the partial index applies. */
const CERTIFIED = "certified = 1";
const ORDER = "ORDER BY created_at DESC, id";

interface PreviewRow {
  id: string;
  name: string;
  phone: string;
  state: string;
  age_range: AgeRange | null;
  price_cents: number;
  form_fill_time: number | null;
  certified: number;
}

/** Leads per key: `n` in all, `c` of them with a certificate. */
interface KeyCount {
  state: string;
  areaCode: string;
  n: number;
  c: number;
}

/** Listed leads per key (the triggers' table) and running reservations (aged_leads_reservations_idx). */
const UNSOLD_SQL =
  "SELECT state, area_code AS areaCode, unsold AS n, certified AS c FROM aged_lead_counts WHERE unsold > 0";
const HELD_BY_KEY_SQL = `SELECT state, coalesce(area_code, '') AS areaCode, count(*) AS n, sum(certified) AS c
  FROM aged_leads INDEXED BY aged_leads_reservations_idx WHERE ${LISTED} AND reserved_until >= ?1
  GROUP BY state, area_code`;
const HELD_SQL = `SELECT '' AS state, '' AS areaCode, count(*) AS n, coalesce(sum(certified), 0) AS c
  FROM aged_leads INDEXED BY aged_leads_reservations_idx WHERE ${LISTED} AND reserved_until >= ?1`;

/**
 * The counts read last in this isolate: a hint to plan the page query before this request's counts
 * arrive, so counts and page go to D1 in one batch. The hint never decides the answer: a plan whose keys
 * turn out different from the fresh counts' is run again.
 */
let lastUnsold: KeyCount[] = [];

/**
 * The filter's keys and the available leads of the listed population (every lead, or only those with a
 * certificate): in total (`available`), among the keys (`matched`), and every lead among the keys
 * (`matchedAll`, what a walk down the key indexes passes over).
 */
function tally(
  terms: readonly LocationTerm[],
  allUnsold: readonly KeyCount[],
  allHeld: readonly KeyCount[],
  certifiedOnly: boolean,
  callableKey: ((row: KeyCount) => boolean) | null,
) {
  // "Callable now": only the keys whose leads may be called at this moment; null = every key.
  const unsold = callableKey ? allUnsold.filter(callableKey) : allUnsold;
  const held = callableKey ? allHeld.filter(callableKey) : allHeld;
  const callableKeys =
    callableKey && unsold.length < allUnsold.length ? unsold.map((row) => `${row.state}\n${row.areaCode}`) : null;
  const keys = locationKeys(
    terms,
    unsold.map((row) => row.state),
  );
  const heldBy = new Map<string, { n: number; c: number }>();
  for (const row of held) {
    const key = `${row.state}\n${row.areaCode}`;
    const sum = heldBy.get(key) ?? { n: 0, c: 0 };
    heldBy.set(key, { n: sum.n + row.n, c: sum.c + row.c });
  }
  let available = 0;
  let matched = 0;
  let matchedAll = 0;
  for (const row of unsold) {
    const heldRow = keys.all ? undefined : heldBy.get(`${row.state}\n${row.areaCode}`);
    const n = row.n - (heldRow?.n ?? 0);
    const listed = certifiedOnly ? row.c - (heldRow?.c ?? 0) : n;
    available += listed;
    if (keys.all || keysMatch(keys, row)) {
      matched += listed;
      matchedAll += n;
    }
  }
  if (keys.all) {
    // Without a filter the running reservations are one total (HELD_SQL), not per key.
    const heldTotal = held.reduce((total, row) => total + (certifiedOnly ? row.c : row.n), 0);
    const heldAll = held.reduce((total, row) => total + row.n, 0);
    return {
      keys,
      callableKeys,
      available: available - heldTotal,
      matched: matched - heldTotal,
      matchedAll: matchedAll - heldAll,
      areaOutside: [] as string[],
    };
  }
  // The selected area codes that have listed leads outside the selected states.
  const areaOutside = [
    ...new Set(
      unsold
        .filter((row) => keys.areaCodes.includes(row.areaCode) && !keys.states.includes(row.state))
        .map((row) => row.areaCode),
    ),
  ].sort();
  return { keys, callableKeys, available, matched, matchedAll, areaOutside };
}

type Plan = ReturnType<typeof tally>;

const samePlan = (a: Plan, b: Plan) =>
  a.callableKeys?.join("\n") === b.callableKeys?.join("\n") &&
  (a.keys.all || b.keys.all
    ? a.keys.all === b.keys.all
    : [...a.keys.states].sort().join("\n") === [...b.keys.states].sort().join("\n") &&
      a.areaOutside.join("\n") === b.areaOutside.join("\n"));

/**
 * The rowids of one page, newest first, and their parameters (?1 now, ?2 offset, then the key lists: at
 * most 5). Raw SQL: drizzle cannot say INDEXED BY, which pins each shape to the index it was
 * measured with (decision 0012 shows the plans). "With certificate" walks its own partial index, or tests
 * `certified` inside the key indexes (decision 0041).
 */
function pageRowids(plan: Plan, certifiedOnly: boolean, now: number, offset: number) {
  const { keys, available, matchedAll } = plan;
  const walkIndex = certifiedOnly ? "aged_leads_certified_listing_idx" : "aged_leads_listing_idx";
  const params: (string | number)[] = [now, offset];
  // "Callable now": the callable keys as one JSON list (?3), looked up per walked entry.
  if (plan.callableKeys) params.push(JSON.stringify(plan.callableKeys));
  const certified = `${certifiedOnly ? ` AND ${CERTIFIED}` : ""}${
    plan.callableKeys ? ` AND state || char(10) || coalesce(area_code, '') IN (SELECT value FROM json_each(?3))` : ""
  }`;
  // One key list: `= ?n` for a single value (one ordered index range), else a JSON list.
  const oneOf = (column: string, values: readonly string[]) => {
    params.push(values.length === 1 ? (values[0] ?? "") : JSON.stringify(values));
    const n = params.length;
    return values.length === 1 ? `${column} = ?${n}` : `${column} IN (SELECT value FROM json_each(?${n}))`;
  };
  const page = `${ORDER} LIMIT ${AGED_LEADS_PAGE_SIZE} OFFSET ?2`;
  if (keys.all) {
    return {
      sql: `SELECT rowid FROM aged_leads INDEXED BY ${walkIndex} WHERE ${AVAILABLE}${certified} ${page}`,
      params,
    };
  }
  const { states } = keys;
  // Area codes whose listed leads all lie in the selected states add nothing (a buyer typing "FL, 305"):
  // the counts say so, and leaving them out spares walking their whole range (decision 0043).
  const areaCodes =
    states.length > 0 ? keys.areaCodes.filter((code) => plan.areaOutside.includes(code)) : keys.areaCodes;
  const stateIn = states.length > 0 ? oneOf("state", states) : null;
  const areaIn = areaCodes.length > 0 ? oneOf("area_code", areaCodes) : null;
  // Walking the keys' indexes costs about (offset + page) × matchedAll / matched entries per key, plus a
  // merge; walking the newest-first index of the population costs (offset + page) × available / matched.
  // Pick the cheaper one (without the certificate filter matchedAll = matched, decision 0012's rule).
  if ((states.length + areaCodes.length) * matchedAll > available) {
    const filter = [stateIn, areaIn].filter(Boolean).join(" OR ");
    return {
      sql: `SELECT rowid FROM aged_leads INDEXED BY ${walkIndex} WHERE ${AVAILABLE}${certified} AND (${filter}) ${page}`,
      params,
    };
  }
  const branches: string[] = [];
  if (stateIn) {
    branches.push(
      `SELECT rowid, created_at, id FROM aged_leads INDEXED BY aged_leads_state_listing_idx
       WHERE ${AVAILABLE}${certified} AND ${stateIn}`,
    );
  }
  if (areaIn) {
    // A lead of a selected state is already in the first branch.
    branches.push(
      `SELECT rowid, created_at, id FROM aged_leads INDEXED BY aged_leads_area_listing_idx
       WHERE ${AVAILABLE}${certified} AND ${areaIn}${stateIn ? ` AND NOT (${stateIn})` : ""}`,
    );
  }
  return { sql: `SELECT rowid FROM (${branches.join(" UNION ALL ")} ${page})`, params };
}

/**
 * The marketplace list; `certifiedOnly` lists only leads with a consent certificate (decision 0041),
 * `callableOnly` only those the calling rules allow calling now (decision 0070).
 */
export async function listAvailableLeads(
  deps: Deps,
  page: number,
  location: string | undefined,
  certifiedOnly = false,
  callableOnly = false,
): Promise<AgedLeadPage> {
  const { now } = deps;
  // Per distinct state and area code, once per request (the counts have a few hundred keys).
  const callable = callableMemo(now);
  const callableKey = callableOnly
    ? (row: KeyCount) => callable({ state: row.state, phone: `${row.areaCode}5550100` }).now
    : null;
  const d1 = deps.env.DB; // raw D1: the measured listing path (decision 0012), see the batch below
  const offset = (page - 1) * AGED_LEADS_PAGE_SIZE;
  const terms = parseLocationFilter(location);
  const pageQuery = (plan: Plan) => {
    const rowids = pageRowids(plan, certifiedOnly, now, offset);
    return d1
      .prepare(
        `SELECT id, name, phone, state, age_range, price_cents, form_fill_time, certified FROM aged_leads
         WHERE rowid IN (${rowids.sql}) ${ORDER}`,
      )
      .bind(...rowids.params);
  };
  // Raw D1 batch (one transaction, one round trip): the page query needs INDEXED BY, which drizzle lacks.
  const planned = tally(terms, lastUnsold, [], certifiedOnly, callableKey);
  const withPage = planned.matched > offset;
  const [unsold, held, listed] = await d1.batch<KeyCount | PreviewRow>([
    d1.prepare(UNSOLD_SQL),
    // Per key when some keys are not callable: their reservations must not count against the callable.
    d1.prepare(planned.keys.all && !callableOnly ? HELD_SQL : HELD_BY_KEY_SQL).bind(now),
    ...(withPage ? [pageQuery(planned)] : []),
  ]);
  lastUnsold = (unsold?.results ?? []) as KeyCount[];
  const fresh = tally(terms, lastUnsold, (held?.results ?? []) as KeyCount[], certifiedOnly, callableKey);
  const { matched } = fresh;
  let rows = (listed?.results ?? []) as PreviewRow[];
  if (matched > offset && !(withPage && samePlan(planned, fresh))) {
    rows = (await pageQuery(fresh).all<PreviewRow>()).results;
  }
  return {
    items: rows.map((row) => {
      const priced = priceLead(row, now);
      return {
        id: row.id,
        name: maskName(row.name),
        phone: maskPhone(row.phone),
        state: row.state,
        currentAgeRange: priced.ageRange,
        actualAge: priced.ageDays,
        // Product rule 13: the day only before purchase.
        formFillTime: row.form_fill_time === null ? null : new Date(row.form_fill_time).toISOString().slice(0, 10),
        // Spec-fixed names (aged-lead list item): dollars; `priceCents` beside them.
        currentPrice: priced.priceCents / 100,
        price: priced.priceCents / 100,
        priceCents: priced.priceCents,
        // Before purchase only whether a certificate exists, never its URL (product rule 39).
        certified: row.certified === 1,
        callable: callable({ state: row.state, phone: row.phone }),
      };
    }),
    total: matched,
    page,
    pageSize: AGED_LEADS_PAGE_SIZE,
    pageCount: Math.max(1, Math.ceil(matched / AGED_LEADS_PAGE_SIZE)),
  };
}

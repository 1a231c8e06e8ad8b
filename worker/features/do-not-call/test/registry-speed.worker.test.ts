/**
 * docs/decisions/0084, measured inside the Worker (workerd under vitest): the registry check for a cached
 * area code and for one not yet cached, and a full list's re-scrub of every lead of its area codes. In
 * the suite it runs small (20,000 leads) and checks the answers; `npm run bench -- registry-lookups`
 * (scripts/bench-registry-lookups.ts) runs it with REGISTRY_BENCH_LEADS=1000000 and reads the figures
 * from the `REGISTRY_BENCH` line it logs.
 */
import { env } from "cloudflare:workers";
import { count, isNotNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testDb } from "../../../../tests/worker/factories";
import { agedLeads } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { registryHolds } from "../registry-checks";
import { rescrubAreaCode } from "../registry-rescrub";
import { resetRegistryCache, storeRegistryFullList } from "../registry-store";

const LEADS = Number((env as unknown as { REGISTRY_BENCH_LEADS?: string }).REGISTRY_BENCH_LEADS || 20_000);
/** Ten New York, California, Texas, Florida and Illinois area codes: the leads spread over them. */
const AREA_CODES = [212, 213, 214, 305, 312, 347, 415, 646, 713, 818];
/** Lead numbers are every 3rd line from exchange 200 on; every 10th lead's number is on the registry. */
const leadKey = (areaCode: number, i: number) => areaCode * 1e7 + 2_000_000 + i * 3;

/** Inserts `per` leads in `areaCode`, 50,000 a statement (a recursive CTE: no rows travel from the test). */
async function insertLeads(areaCode: number, per: number, now: number) {
  for (let from = 0; from < per; from += 50_000) {
    await env.DB.prepare(
      `WITH RECURSIVE s(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM s WHERE i + 1 < ?2)
       INSERT INTO aged_leads (id, name, phone, state, dedupe_key, phone_key, area_code, created_at)
       SELECT 'bench-' || ?3 || '-' || i, 'Bench Lead', CAST(?4 + i * 3 AS TEXT), 'NY', 'bench-' || ?3 || '-' || i,
              ?4 + i * 3, ?3, ?5 FROM s`,
    )
      .bind(from, Math.min(per, from + 50_000), areaCode, leadKey(areaCode, 0), now)
      .run();
  }
}

/** A full area code: every 11th line of exchanges 200-999 (727,273 numbers, about 1 MB of bits). */
function fullAreaCode(areaCode: number): string {
  const parts: string[] = [];
  for (let subscriber = 2_000_000; subscriber < 10_000_000; subscriber += 11)
    parts.push(`${areaCode * 1e7 + subscriber}\n`);
  return parts.join("");
}

describe("the registry check and the re-scrub, timed inside the Worker", () => {
  it(`checks a number in well under a millisecond once cached, and re-scrubs ${LEADS.toLocaleString("en-US")} leads`, async () => {
    const deps = createDeps(env);
    const per = Math.ceil(LEADS / AREA_CODES.length);
    const insertStart = performance.now();
    for (const areaCode of AREA_CODES) await insertLeads(areaCode, per, deps.now);
    const insertMs = performance.now() - insertStart;

    // The full lists: every 10th lead's number, and as many numbers no lead has.
    let listed = 0;
    let rescrubMs = 0;
    for (const areaCode of AREA_CODES) {
      const lines: string[] = [];
      for (let i = 0; i < per; i += 10) lines.push(`${leadKey(areaCode, i)}\n`, `${leadKey(areaCode, i) + 1}\n`);
      listed += Math.ceil(per / 10);
      const swap = await storeRegistryFullList(deps, "national", areaCode, lines.join(""));
      const start = performance.now();
      await rescrubAreaCode(deps, "national", swap);
      rescrubMs += performance.now() - start;
    }
    const [flagged] = await testDb()
      .select({ n: count() })
      .from(agedLeads)
      .where(isNotNull(agedLeads.registryListedAt));
    expect(flagged?.n).toBe(listed);

    // Cached: the area codes the re-scrub read.
    const probes = Array.from({ length: 10_000 }, (_, i) => leadKey(AREA_CODES[i % AREA_CODES.length] ?? 212, i % per));
    const cachedStart = performance.now();
    let held = 0;
    for (const key of probes) if ((await registryHolds(deps, key, "NY")) !== null) held++;
    const cachedMs = (performance.now() - cachedStart) / probes.length;
    expect(held).toBe(probes.filter((key) => ((key % 1e7) - 2_000_000) % 30 === 0).length);

    // Not yet cached: a full area code (about 1 MB in R2), of which the first check reads its index and the
    // number's exchange by ranges (decision 0065); the median of three.
    const cold: number[] = [];
    for (const areaCode of [917, 929, 718]) {
      await storeRegistryFullList(deps, "national", areaCode, fullAreaCode(areaCode));
      resetRegistryCache();
      const start = performance.now();
      const scope = await registryHolds(deps, areaCode * 1e7 + 2_000_011, "NY");
      cold.push(performance.now() - start);
      expect(scope).toBe("national");
    }
    const uncachedMs = cold.sort((a, b) => a - b)[1] ?? 0;

    const figures = {
      leads: per * AREA_CODES.length,
      listed,
      insertMs: Math.round(insertMs),
      rescrubMs: Math.round(rescrubMs),
      rescrubPerMillionMs: Math.round((rescrubMs / (per * AREA_CODES.length)) * 1e6),
      cachedCheckMs: Number(cachedMs.toFixed(4)),
      uncachedCheckMs: Number(uncachedMs.toFixed(1)),
    };
    console.log(`REGISTRY_BENCH ${JSON.stringify(figures)}`);
  }, 900_000);
});

/**
 * docs/decisions/0084: exact. Over several area codes and three registry copies (national, Texas,
 * Colorado), full lists then rounds of change lists applied in a shuffled order of area codes and copies:
 * after each round the wired lookup (registry-checks.ts) and the leads' flags (kept by registry-rescrub.ts)
 * say suppressed exactly when a reference set says the number is on a copy that applies to it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createLeads, testDb } from "../../../../tests/worker/factories";
import { agedLeads } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { registryAnswer } from "../registry-checks";
import { rescrubAreaCode } from "../registry-rescrub";
import { applyRegistryChangeList, type RegistryScope, storeRegistryFullList } from "../registry-store";

/** A seeded generator, so a failure can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Area codes and their states (the `areacodes` table agrees), and the copies that cover each. */
const AREA_CODES = [
  { areaCode: 212, state: "NY", scopes: ["national"] },
  { areaCode: 214, state: "TX", scopes: ["national", "TX"] },
  { areaCode: 303, state: "CO", scopes: ["national", "CO"] },
  { areaCode: 720, state: "CO", scopes: ["national", "CO"] },
] as const;

const lines = (records: readonly (number | string)[]) => records.map((record) => `${record}\n`).join("");

describe("the registry copies in every check: exact", () => {
  it("lookups and lead flags equal a reference set after change lists in any order of area codes", async () => {
    const deps = createDeps(env);
    const random = generator(84);
    // 60 candidate numbers an area code (a crowded exchange and scattered lines); leads on 40 of them.
    const pool = new Map(
      AREA_CODES.map(({ areaCode }) => [
        areaCode,
        Array.from({ length: 60 }, (_, i) => areaCode * 1e7 + (i < 30 ? 5_550_000 + i * 7 : 2_000_000 + i * 104_729)),
      ]),
    );
    const stateOf = new Map<number, string>(AREA_CODES.map(({ areaCode, state }) => [areaCode, state]));
    const leadKeys = [...pool.values()].flatMap((keys) => keys.slice(0, 40));
    // A third of the leads carry another state than their area code's: their own state decides.
    const leadStates = leadKeys.map((key, i) => (i % 3 === 0 ? "NY" : (stateOf.get(Math.floor(key / 1e7)) as string)));
    const ids = await createLeads(testDb(), leadKeys.length, (i) => ({
      phone: String(leadKeys[i]),
      state: leadStates[i],
    }));
    const reference = new Map<RegistryScope, Set<number>>([
      ["national", new Set()],
      ["TX", new Set()],
      ["CO", new Set()],
    ]);
    const draw = (keys: number[]) => keys.filter(() => random() < 0.4);
    const jobs = AREA_CODES.flatMap(({ areaCode, scopes }) => scopes.map((scope) => ({ areaCode, scope })));
    const shuffled = () =>
      jobs
        .map((job) => ({ job, at: random() }))
        .sort((a, b) => a.at - b.at)
        .map(({ job }) => job);

    const check = async (round: string) => {
      const items = leadKeys.map((key, i) => ({ key, state: leadStates[i] }));
      const probes = [...pool.values()].flat().map((key) => ({ key, state: stateOf.get(Math.floor(key / 1e7)) }));
      const answer = await registryAnswer(deps, [...items, ...probes]);
      const expected = (item: { key: number; state: string | undefined }) =>
        (reference.get("national")?.has(item.key) ?? false) ||
        ((item.state === "TX" || item.state === "CO") && (reference.get(item.state)?.has(item.key) ?? false));
      const wrong = [...items, ...probes].filter((item) => (answer.scopeOf(item) !== null) !== expected(item));
      expect(wrong, round).toEqual([]);
      const rows = await testDb()
        .select({ id: agedLeads.id, listed: agedLeads.registryListedAt, suppressed: agedLeads.suppressedAt })
        .from(agedLeads);
      const byId = new Map(rows.map((row) => [row.id, row]));
      const flags = ids.map((id) => byId.get(id)?.listed !== null && byId.get(id)?.suppressed !== null);
      expect(flags, round).toEqual(items.map(expected));
    };

    for (const { areaCode, scope } of shuffled()) {
      const numbers = draw(pool.get(areaCode) ?? []);
      for (const key of numbers) reference.get(scope)?.add(key);
      const swap = await storeRegistryFullList(
        deps,
        scope,
        areaCode,
        lines(numbers.length ? numbers : [areaCode * 1e7]),
      );
      if (numbers.length === 0) reference.get(scope)?.add(areaCode * 1e7);
      await rescrubAreaCode(deps, scope, swap);
    }
    await check("after the full lists");

    for (let round = 1; round <= 4; round++) {
      for (const { areaCode, scope } of shuffled()) {
        const held = reference.get(scope) as Set<number>;
        // Adds and deletes in one file, some of them no-ops (a delete of a number not held, an add of one held).
        const changes = (pool.get(areaCode) ?? [])
          .filter(() => random() < 0.3)
          .map((key) => ({ key, add: random() < 0.5 }));
        if (changes.length === 0) continue;
        for (const { key, add } of changes) add ? held.add(key) : held.delete(key);
        const swap = await applyRegistryChangeList(
          deps,
          scope,
          areaCode,
          lines(changes.map(({ key, add }) => `${key},${add ? "A" : "D"}`)),
        );
        await rescrubAreaCode(deps, scope, swap);
      }
      await check(`after round ${round}`);
    }
  });
});

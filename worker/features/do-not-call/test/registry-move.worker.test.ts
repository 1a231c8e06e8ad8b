/**
 * docs/decisions/0084: the national and state lists kept as D1 rows move into the registry store (migration
 * 0047 marks them; the cron's task moves them area code by area code): every number stays suppressed, the
 * moved rows are gone, and the shop's own list, litigators and buyers' private lists keep their rows.
 */
import { env } from "cloudflare:workers";
import { and, count, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { REGISTRY_UPLOAD_MESSAGE } from "../../../../src/features/do-not-call/registry-scopes";
import { dayNumber } from "../../../../src/features/do-not-call/suppression";
import { createLead, testDb } from "../../../../tests/worker/factories";
import { callApi, createUser, signedIn } from "../../../../tests/worker/helpers";
import { emptyReport, today } from "../../../../tests/worker/suppression-fixtures";
import { agedLeads, suppressionLists, suppressionNumbers } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { registryHolds } from "../registry-checks";
import { moveListsToRegistry } from "../registry-move";
import { rescrubAreaCode } from "../registry-rescrub";
import { applyRegistryChangeList, storeRegistryFullList } from "../registry-store";

type ListKind = "national_dnc" | "state_dnc" | "litigator" | "buyer_private";

async function listWith(kind: ListKind, numbers: number[], extra: { state?: string; ownerUserId?: string } = {}) {
  const db = testDb();
  const [list] = await db
    .insert(suppressionLists)
    .values({ kind, name: `${kind} ${extra.state ?? ""}`, numbers: numbers.length, ...extra })
    .returning({ id: suppressionLists.id });
  const id = list?.id ?? 0;
  const today = dayNumber(Date.now());
  if (numbers.length > 0) {
    await db.insert(suppressionNumbers).values(numbers.map((number) => ({ number, listId: id, addedOn: today })));
  }
  return id;
}

const rowsOf = async (listId: number) =>
  (await testDb().select({ n: count() }).from(suppressionNumbers).where(eq(suppressionNumbers.listId, listId)))[0]?.n ??
  0;

/** Held by the national copy, or by a D1 row of any list: what every check asks, by either storage. */
async function suppressedNow(key: number) {
  const [d1] = await testDb().select({ n: count() }).from(suppressionNumbers).where(eq(suppressionNumbers.number, key));
  return (await registryHolds(createDeps(env), key, "NY")) !== null || (d1?.n ?? 0) > 0;
}

describe("moving the national and state lists off D1", () => {
  it("keeps every number suppressed, deletes the moved rows, and leaves the other lists' rows alone", async () => {
    const deps = createDeps(env);
    const buyer = await createUser();
    const national = [2125550001, 2125550002, 2145550003, 3035550004, 7205550005];
    const texas = [2145550010, 2145550011];
    // The national copy already holds area code 303 (the loader was first): it keeps its numbers and gains the old ones.
    await storeRegistryFullList(deps, "national", 303, "3035559999\n");
    const nationalId = await listWith("national_dnc", national);
    const texasId = await listWith("state_dnc", texas, { state: "TX" });
    const litigatorId = await listWith("litigator", [2125550020]);
    const privateId = await listWith("buyer_private", [2125550030], { ownerUserId: buyer.id });
    const stateless = await listWith("state_dnc", [2125550040]);
    // Leads inserted now: the insert trigger suppresses them from the D1 rows.
    const leads = await Promise.all(
      [national[0], texas[0]].map((key) => createLead(testDb(), { phone: String(key), state: "TX" })),
    );
    // What migration 0047 marks.
    await testDb()
      .update(suppressionLists)
      .set({ registryMove: "pending" })
      .where(inArray(suppressionLists.id, [nationalId, texasId]));

    // Part of the move (one area code), then the rest: in between, every number is suppressed.
    expect(await moveListsToRegistry(deps, 1)).toBe(1);
    for (const key of national) expect(await suppressedNow(key), String(key)).toBe(true);
    const moved = await moveListsToRegistry(deps, 100);
    expect(moved).toBe(4); // national 214, 303, 720; Texas 214
    expect(await moveListsToRegistry(deps, 100)).toBe(0);

    for (const key of national) expect(await registryHolds(deps, key, "NY"), String(key)).toBe("national");
    for (const key of texas) expect(await registryHolds(deps, key, "TX"), String(key)).toBe("TX");
    expect(await registryHolds(deps, 3035559999, "CO")).toBe("national");
    expect(await rowsOf(nationalId)).toBe(0);
    expect(await rowsOf(texasId)).toBe(0);
    expect(await rowsOf(litigatorId)).toBe(1);
    expect(await rowsOf(privateId)).toBe(1);
    expect(await rowsOf(stateless)).toBe(1);
    const marks = await testDb()
      .select({ id: suppressionLists.id, move: suppressionLists.registryMove })
      .from(suppressionLists)
      .where(inArray(suppressionLists.id, [nationalId, texasId, stateless]));
    expect(new Map(marks.map((row) => [row.id, row.move]))).toEqual(
      new Map([
        [nationalId, "done"],
        [texasId, "done"],
        [stateless, null],
      ]),
    );

    // The leads stay suppressed, now by the registry: a change list that deletes the number lists them again.
    const flags = await testDb()
      .select({ id: agedLeads.id, suppressed: agedLeads.suppressedAt, registry: agedLeads.registryListedAt })
      .from(agedLeads)
      .where(
        and(
          inArray(
            agedLeads.id,
            leads.map((lead) => lead.id),
          ),
        ),
      );
    expect(flags.every((row) => row.suppressed !== null && row.registry !== null)).toBe(true);
    const swap = await applyRegistryChangeList(deps, "national", 212, `${national[0]},D\n`);
    await rescrubAreaCode(deps, "national", swap);
    const [freed] = await testDb()
      .select({ suppressed: agedLeads.suppressedAt })
      .from(agedLeads)
      .where(eq(agedLeads.id, leads[0]?.id ?? ""));
    expect(freed?.suppressed).toBeNull();
  });

  it("the old list upload refuses a national or state list, new or existing, pointing to the registry upload", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const existing = await listWith("national_dnc", [2125550050]);
    const common = { contents: "full", refreshedOn: today(), fileName: "list.txt", report: emptyReport(1) };
    for (const json of [
      { ...common, kind: "national_dnc", name: "Registry" },
      { ...common, kind: "state_dnc", name: "Texas" },
      { ...common, listId: existing },
    ]) {
      const response = await callApi("/api/admin/suppression-uploads", { cookie, json });
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(REGISTRY_UPLOAD_MESSAGE);
    }
    expect(await rowsOf(existing)).toBe(1);
  });
});

/**
 * docs/decisions/0084: the registry copies in R2 (the national one, and the state lists for numbers of
 * their state) suppress exactly like a D1 shared list, in every check: the ping, a call-back's intake,
 * market and delivery, a lead's import, listing and sale; a swap re-scrubs the area code's leads and
 * call-backs (flags set and cleared) and revokes what was sold; the sale records the copies checked.
 */
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { localTime } from "../../../../src/domain/time-zones";
import { adminAgedLeadSchema } from "../../../../src/features/aged-leads/schemas/admin-leads";
import { callbackSchema } from "../../../../src/features/callbacks/schemas/callbacks";
import { createCallback, createLead, testDb } from "../../../../tests/worker/factories";
import { callApi, createUser, signedIn } from "../../../../tests/worker/helpers";
import { buyLeads } from "../../../../tests/worker/payment-fixtures";
import { marketplace, uniqueState, uploadList } from "../../../../tests/worker/suppression-fixtures";
import {
  clearTransfers,
  createOpenOrder,
  createPartner,
  pingBody,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import {
  agedLeads,
  callbackOpportunities,
  suppressionChecks,
  suppressionLists,
  suppressionRevocations,
  transfers,
} from "../../../db/schema";
import { createDeps } from "../../../deps";
import { ConflictError } from "../../../errors";
import { addAgedLead } from "../../aged-leads/admin-leads";
import { listMarketCallbacks } from "../../callbacks/callback-market";
import { takeCallback } from "../../callbacks/callbacks";
import { registryHolds } from "../registry-checks";
import { rescrubAreaCode } from "../registry-rescrub";
import { applyRegistryChangeList, type RegistryScope, storeRegistryFullList } from "../registry-store";
import { suppressedAfterPurchase } from "../suppression-checks";

routeAtCallingHours();
beforeEach(clearTransfers);

const lines = (...records: (number | string)[]) => records.map((record) => `${record}\n`).join("");
let counter = 0;
/** A fresh number of `areaCode` (212 New York, 214 Texas, 303 Colorado). */
const phoneIn = (areaCode: number) => String(areaCode * 1e7 + 5_550_000 + ++counter);

/** Stores a full list for one area code of `scope` and re-scrubs it, as the loader does. */
async function storeFull(scope: RegistryScope, areaCode: number, numbers: string[]) {
  const deps = createDeps(env);
  const swap = await storeRegistryFullList(deps, scope, areaCode, lines(...numbers, `${areaCode}0000001`));
  return rescrubAreaCode(deps, scope, swap);
}

async function applyChanges(scope: RegistryScope, areaCode: number, changes: string[]) {
  const deps = createDeps(env);
  const swap = await applyRegistryChangeList(deps, scope, areaCode, lines(...changes));
  return rescrubAreaCode(deps, scope, swap);
}

async function leadFlags(id: string) {
  const [row] = await testDb()
    .select({ suppressed: agedLeads.suppressedAt, registry: agedLeads.registryListedAt })
    .from(agedLeads)
    .where(eq(agedLeads.id, id));
  return { suppressed: row?.suppressed !== null, registry: row?.registry !== null };
}

async function ping(auth: Record<string, string>, phone: string, state = "TX") {
  const response = await callApi("/api/v1/transfers", { headers: auth, json: pingBody({ phone, state }) });
  return { status: response.status, body: await response.json<Record<string, unknown>>() };
}

describe("which registry copies apply to a number", () => {
  it("the national copy to every number; a state's own list to numbers of that state only", async () => {
    const deps = createDeps(env);
    const [national, texan, texanElsewhere, coloradan] = [phoneIn(212), phoneIn(214), phoneIn(214), phoneIn(303)];
    await storeFull("national", 212, [national]);
    await storeFull("TX", 214, [texan, texanElsewhere]);
    await storeFull("CO", 303, [coloradan]);

    expect(await registryHolds(deps, Number(national), "NY")).toBe("national");
    expect(await registryHolds(deps, Number(texan), "TX")).toBe("TX");
    // The lead's own state wins: a Texas area code for a prospect in Oklahoma is not on the Texas list.
    expect(await registryHolds(deps, Number(texanElsewhere), "OK")).toBeNull();
    // No state known: the area code's state.
    expect(await registryHolds(deps, Number(texanElsewhere), null)).toBe("TX");
    expect(await registryHolds(deps, Number(coloradan), "CO")).toBe("CO");
    expect(await registryHolds(deps, Number(phoneIn(212)), "NY")).toBeNull();
    // Each copy is a list row of its own, as the sale's record names it.
    const lists = await testDb()
      .select({ kind: suppressionLists.kind, state: suppressionLists.state })
      .from(suppressionLists)
      .orderBy(suppressionLists.id);
    expect(lists).toEqual(
      expect.arrayContaining([
        { kind: "national_dnc", state: null },
        { kind: "state_dnc", state: "TX" },
        { kind: "state_dnc", state: "CO" },
      ]),
    );
  });
});

describe("the registry at the ping", () => {
  it("answers `suppressed` for a number on the national copy, and routes a clean one recording the copies checked", async () => {
    const partner = await createPartner();
    await createOpenOrder();
    const [listed, clean] = [phoneIn(212), phoneIn(212)];
    await storeFull("national", 212, [listed]);
    await storeFull("TX", 214, [phoneIn(214)]);
    await storeFull("CO", 303, [phoneIn(303)]);

    const refused = await ping(partner.auth, listed);
    expect(refused).toMatchObject({ status: 409, body: { reason: "suppressed" } });
    const routed = await ping(partner.auth, clean);
    expect(routed.status).toBe(201);
    const [transfer] = await testDb().select({ id: transfers.id }).from(transfers).where(eq(transfers.phone, clean));
    const checked = await testDb()
      .select({ kind: suppressionChecks.listKind, name: suppressionChecks.listName })
      .from(suppressionChecks)
      .where(eq(suppressionChecks.subjectId, transfer?.id ?? ""));
    // The shop's own list, the national copy and Texas's own list (the prospect is in Texas), never Colorado's.
    expect(checked.map((row) => row.name).sort()).toEqual([
      "Do Not Call requests to us",
      "National Do Not Call Registry",
      "TX state Do Not Call list",
    ]);
  });

  it("answers `suppressed` for a Texan on the Texas list, and routes the same number for a prospect elsewhere", async () => {
    const partner = await createPartner();
    await createOpenOrder();
    const phone = phoneIn(214);
    await storeFull("TX", 214, [phone]);
    expect(await ping(partner.auth, phone, "TX")).toMatchObject({ status: 409, body: { reason: "suppressed" } });
    expect((await ping(partner.auth, phone, "OK")).status).toBe(201);
  });
});

describe("leads and the registry", () => {
  it("a listed lead leaves the marketplace when a change list adds its number, and comes back when one deletes it", async () => {
    const { cookie } = await signedIn();
    const state = uniqueState();
    const phone = phoneIn(212);
    const lead = await createLead(testDb(), { phone, state });
    await storeFull("national", 212, []);
    expect((await marketplace(cookie, state)).ids).toEqual([lead.id]);

    expect(await applyChanges("national", 212, [`${phone},A`])).toEqual({ flagged: 1, cleared: 0 });
    expect(await leadFlags(lead.id)).toEqual({ suppressed: true, registry: true });
    expect((await marketplace(cookie, state)).ids).toEqual([]);
    expect((await buyLeads(cookie, [lead.id])).status).toBe(409);

    expect(await applyChanges("national", 212, [`${phone},D`])).toEqual({ flagged: 0, cleared: 1 });
    expect(await leadFlags(lead.id)).toEqual({ suppressed: false, registry: false });
    expect((await marketplace(cookie, state)).ids).toEqual([lead.id]);
  });

  it("a D1 list and a registry copy each keep the lead suppressed while the other lets the number go", async () => {
    const { cookie: admin } = await signedIn({ isAdmin: true });
    const phone = phoneIn(212);
    const lead = await createLead(testDb(), { phone, state: uniqueState() });
    const litigators = await uploadList({ cookie: admin, kind: "litigator", add: [Number(phone)] });
    await storeFull("national", 212, [phone]);
    expect(await leadFlags(lead.id)).toEqual({ suppressed: true, registry: true });

    // The litigator list lets it go: the registry still holds it.
    await uploadList({ cookie: admin, listId: litigators.listId, contents: "deletions", remove: [Number(phone)] });
    expect(await leadFlags(lead.id)).toEqual({ suppressed: true, registry: true });

    // Back on the litigator list, then off the registry: the litigator list still holds it.
    await uploadList({ cookie: admin, listId: litigators.listId, contents: "additions", add: [Number(phone)] });
    await applyChanges("national", 212, [`${phone},D`]);
    expect(await leadFlags(lead.id)).toEqual({ suppressed: true, registry: false });
  });

  it("a lead added by an admin with a number on the registry is stored, not listed", async () => {
    const { cookie } = await signedIn();
    const phone = phoneIn(212);
    await storeFull("national", 212, [phone]);
    const state = "NY";
    const { id } = await addAgedLead(
      createDeps(env),
      adminAgedLeadSchema.parse({ name: "Ann Lee", phone, state, formFillTime: Date.now() - 40 * 86_400_000 }),
    );
    expect(await leadFlags(id)).toEqual({ suppressed: true, registry: true });
    expect((await marketplace(cookie, state)).ids).not.toContain(id);
  });

  it("a sold lead whose number reaches the registry is revoked once, and flagged in the buyer's leads", async () => {
    const buyer = await signedIn();
    const phone = phoneIn(303);
    const soldAt = Date.now() - 86_400_000;
    const lead = await createLead(testDb(), {
      phone,
      state: "CO",
      soldToUserId: buyer.user.id,
      soldAt: new Date(soldAt),
    });
    await storeFull("CO", 303, []);
    await applyChanges("CO", 303, [`${phone},A`]);
    await applyChanges("CO", 303, [`${phoneIn(303)},A`]);
    const revoked = await testDb()
      .select({ item: suppressionRevocations.itemId, kind: suppressionRevocations.listKind })
      .from(suppressionRevocations)
      .where(eq(suppressionRevocations.userId, buyer.user.id));
    expect(revoked).toEqual([{ item: lead.id, kind: "state_dnc" }]);
    const flags = await suppressedAfterPurchase(createDeps(env), buyer.user.id, [{ phone, purchasedAt: soldAt }]);
    expect(flags.get(phone)).toBe(new Date().toISOString().slice(0, 10));

    // Off the list again: no longer flagged.
    await applyChanges("CO", 303, [`${phone},D`]);
    const after = await suppressedAfterPurchase(createDeps(env), buyer.user.id, [{ phone, purchasedAt: soldAt }]);
    expect(after.size).toBe(0);
  });
});

describe("call-backs and the registry", () => {
  it("a call-back whose number reaches the registry leaves the market; one taken in with such a number is refused", async () => {
    const deps = createDeps(env);
    const phone = phoneIn(212);
    const callback = await createCallback(testDb(), { phone, state: "NY" });
    await storeFull("national", 212, []);
    const listed = async () => (await listMarketCallbacks(deps, "callback")).map((item) => item.id);
    expect(await listed()).toContain(callback.id);

    await applyChanges("national", 212, [`${phone},A`]);
    expect(await listed()).not.toContain(callback.id);
    const [row] = await testDb()
      .select({ at: callbackOpportunities.registryListedAt })
      .from(callbackOpportunities)
      .where(and(eq(callbackOpportunities.id, callback.id)));
    expect(row?.at).not.toBeNull();

    const admin = await createUser({ isAdmin: true });
    const input = callbackSchema.parse({
      kind: "callback",
      prospect: { firstName: "Ruth", lastName: "Miller", phone, state: "NY" },
      window: { date: localTime(Date.now() + 86_400_000, "America/New_York").day, from: "09:00", to: "11:00" },
      consent: { optInAt: new Date(Date.now() - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
    });
    await expect(takeCallback(deps, input, { source: "admin", createdBy: admin.id })).rejects.toThrow(ConflictError);
    const clean = callbackSchema.parse({ ...input, prospect: { ...input.prospect, phone: phoneIn(212) } });
    await expect(takeCallback(deps, clean, { source: "admin", createdBy: admin.id })).resolves.toBeTruthy();
  });
});

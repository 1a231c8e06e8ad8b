/**
 * Only paid-for prospects are shown (product rule 20). The Lead Tracker's list and CSV show the name and
 * phone only of calls that connected; no-answer, failed, expired and still-ringing ones show them masked.
 */
import { env } from "cloudflare:workers";
import Papa from "papaparse";
import { beforeEach, describe, expect, it } from "vitest";
import { maskPhone } from "../../../../src/domain/masking";
import type { TrackerPage } from "../../../../src/features/returns/returns";
import { callApi } from "../../../../tests/worker/helpers";
import { buyerWithOrder, type Partner } from "../../../../tests/worker/returns-fixtures";
import {
  clearTransfers,
  createPartner,
  newPhone,
  routeAtCallingHours,
} from "../../../../tests/worker/transfer-fixtures";
import { createDeps } from "../../../deps";
import { recordTransferEvent, routeTransfer } from "../../transfers/transfers";

// Pings route only inside the prospect's legal calling hours (docs/decisions/0064).
routeAtCallingHours();

beforeEach(clearTransfers);

const MINUTE = 60_000;

/** A call routed `minutesAgo` to the open order, then the given events (with their times). */
async function call(partner: Partner, lastName: string, minutesAgo: number, events: Record<string, unknown>[]) {
  const at = Date.now() - minutesAgo * MINUTE;
  const phone = newPhone();
  const { transferId } = await routeTransfer(createDeps(env, at), partner.owner, {
    prospect: { firstName: "Mary", lastName, phone, state: "TX" },
    consent: { optInAt: new Date(at - MINUTE).toISOString(), optInUrl: "https://example.com/quote" },
  });
  let time = at;
  for (const event of events) {
    time += 10_000;
    await recordTransferEvent(createDeps(env, time), partner.id, transferId, event as never, {
      siteOrigin: "http://localhost",
    });
  }
  return { transferId, phone };
}

describe("the Lead Tracker shows only paid-for prospects", () => {
  it("in full for connected and completed calls, masked for no-answer, failed, expired and ringing ones", async () => {
    const partner = await createPartner();
    const buyer = await buyerWithOrder({ quantity: 20 });
    const calls = {
      completed: await call(partner, "Completed", 30, [
        { type: "connected" },
        { type: "completed", durationSeconds: 200 },
      ]),
      connected: await call(partner, "Connected", 0, [{ type: "connected" }]),
      noAnswer: await call(partner, "Noanswer", 25, [{ type: "no-answer" }]),
      failed: await call(partner, "Failed", 20, [{ type: "failed" }]),
      expired: await call(partner, "Expired", 15, []),
      ringing: await call(partner, "Ringing", 0, []),
    };

    const response = await callApi("/api/tracker/transfers", { cookie: buyer.cookie });
    const page = await response.json<TrackerPage>();
    const shown = (key: keyof typeof calls) => page.items.find((item) => item.id === calls[key].transferId);
    for (const key of ["completed", "connected"] as const) {
      expect(shown(key), key).toMatchObject({ phone: calls[key].phone, contactShown: true });
      expect(shown(key)?.lastName, key).toMatch(/^(Completed|Connected)$/);
    }
    const masked = { noAnswer: "N.", failed: "F.", expired: "E.", ringing: "R." } as const;
    for (const [key, lastName] of Object.entries(masked) as [keyof typeof masked, string][]) {
      expect(shown(key), key).toMatchObject({
        firstName: "Mary",
        lastName,
        phone: maskPhone(calls[key].phone),
        contactShown: false,
      });
    }
    expect(JSON.stringify(page)).not.toContain(calls.noAnswer.phone);
    expect(JSON.stringify(page)).not.toContain("Noanswer");

    const csv = await (await callApi("/api/tracker/transfers.csv", { cookie: buyer.cookie })).text();
    const rows = Papa.parse<string[]>(csv).data.slice(1);
    expect(rows).toHaveLength(6);
    for (const key of ["noAnswer", "failed", "expired", "ringing"] as const) {
      expect(csv, key).not.toContain(calls[key].phone);
      expect(csv, key).toContain(maskPhone(calls[key].phone));
    }
    for (const name of ["Noanswer", "Failed", "Expired", "Ringing"]) expect(csv).not.toContain(name);
    for (const key of ["completed", "connected"] as const) expect(csv, key).toContain(calls[key].phone);
    expect(csv).toContain("Completed");
  });
});

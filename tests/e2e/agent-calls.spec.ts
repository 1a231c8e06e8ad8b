/**
 * Calls ring an order's agent (docs/decisions/0072): with an agent on the order the demo partner's pings
 * reach, a ping answers the agent's number, and the buyer's Lead Tracker names the agent who took the call.
 * Then axe over that view.
 */
import { eq } from "drizzle-orm";
import { orderAgents, transfers } from "../../worker/db/schema";
import { createAgent } from "../worker/factories/agents";
import { e2eDb } from "./database";
import { axeOf, expect, test } from "./fixtures";
import { partnerPost } from "./partners";

/** A Texas caller pinged, connected and completed after three minutes (billable). */
async function deliver(firstName: string, lastName: string, phone: string) {
  const routed = await partnerPost("/transfers", {
    prospect: { firstName, lastName, phone, state: "TX", age: 70 },
    consent: { optInAt: new Date(Date.now() - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
  });
  const id = String(routed.transferId);
  await partnerPost(`/transfers/${id}/events`, { type: "connected" });
  await partnerPost(`/transfers/${id}/events`, { type: "completed", durationSeconds: 180 });
  const [row] = await e2eDb()
    .select({ orderId: transfers.orderId, agentId: transfers.agentId })
    .from(transfers)
    .where(eq(transfers.id, id));
  return { phoneNumber: String(routed.phoneNumber), orderId: row?.orderId ?? "", agentId: row?.agentId ?? null };
}

test("a ping rings the order's agent, and the Lead Tracker names the agent", async ({ newPage }) => {
  test.setTimeout(120_000);
  const tag = Date.now().toString(36).replace(/\d/g, "");
  const lastName = `Agentcall${tag}`;
  const digits = String(Date.now() % 1_000_000).padStart(6, "0");
  // The order the demo partner's Texas callers reach now (the demo buyer's, as the tracker's specs rely on).
  const first = await deliver("Beforeagent", lastName, `737${digits}1`);
  // Texas, all day, every day, Chicago time: the factory's defaults.
  const agent = await createAgent(e2eDb(), first.orderId, { name: `Dana ${tag}`, transferPhone: `512${digits}7` });
  try {
    const second = await deliver("Withagent", lastName, `737${digits}2`);
    expect(second).toEqual({ phoneNumber: agent.transferPhone, orderId: first.orderId, agentId: agent.id });

    const buyer = await newPage({ as: "buyer", bypassCSP: true });
    await buyer.goto("/dashboard/lead-tracker");
    await buyer.getByRole("heading", { name: "Lead Tracker" }).waitFor();
    const table = buyer.getByRole("region", { name: "Delivered transfers" });
    const row = (firstName: string) => table.locator("tr").filter({ hasText: `${firstName} ${lastName}` });
    await row("Withagent").waitFor();
    await expect(row("Withagent")).toContainText(`Agent: ${agent.name}`);
    await expect(row("Beforeagent")).toContainText("Agent: —");

    await buyer.waitForLoadState("networkidle");
    const results = await axeOf(buyer).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    const serious = results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
    expect(serious).toEqual([]);
  } finally {
    // Later specs expect the order to ring its own number: the agent leaves (its name stays on its call).
    await e2eDb().update(orderAgents).set({ removedAt: new Date() }).where(eq(orderAgents.id, agent.id));
  }
});

/** An order's agents (docs/decisions/0071): its buyer (or an admin) lists, adds, edits, removes them and flips their switch. */
import { Hono } from "hono";
import { agentInputSchema, agentSwitchSchema } from "../../../../src/features/transfers/schemas/agents";
import type { SignedInBindings } from "../../../env";
import { validateJson } from "../../../validation";
import { addAgent, listAgents, removeAgent, setTakingCalls, updateAgent } from "../agents";

/** Mounted in the buyer sub-app (worker/api.ts): partners are refused there, admins let through. */
export const agents = new Hono<SignedInBindings>()
  .get("/transfer-orders/:id/agents", async (c) =>
    c.json(await listAgents(c.var.deps, c.get("user"), c.req.param("id"))),
  )
  .post("/transfer-orders/:id/agents", validateJson(agentInputSchema), async (c) =>
    c.json(await addAgent(c.var.deps, c.get("user"), c.req.param("id"), c.req.valid("json")), 201),
  )
  .put("/transfer-orders/:id/agents/:agentId", validateJson(agentInputSchema), async (c) =>
    c.json(
      await updateAgent(c.var.deps, c.get("user"), c.req.param("id"), c.req.param("agentId"), c.req.valid("json")),
    ),
  )
  .patch("/transfer-orders/:id/agents/:agentId/taking-calls", validateJson(agentSwitchSchema), async (c) => {
    const { takingCalls } = c.req.valid("json");
    const { id, agentId } = c.req.param();
    return c.json(await setTakingCalls(c.var.deps, c.get("user"), id, agentId, takingCalls));
  })
  .delete("/transfer-orders/:id/agents/:agentId", async (c) => {
    await removeAgent(c.var.deps, c.get("user"), c.req.param("id"), c.req.param("agentId"));
    return c.json({ message: "Agent removed" });
  });

/** The buyer's consent records (decision 0041): one per purchased lead or delivered transfer. */
import { Hono } from "hono";
import type { SignedInBindings } from "../../../env";
import { leadConsentRecord, transferConsentRecord } from "../consent-records";

/** Mounted in the buyer sub-app (worker/api.ts): only the buyer's own leads and transfers, else 404. */
export const consent = new Hono<SignedInBindings>()
  .get("/my-leads/:id/consent", async (c) =>
    c.json(await leadConsentRecord(c.var.deps, c.get("user").id, c.req.param("id"))),
  )
  .get("/tracker/transfers/:id/consent", async (c) =>
    c.json(await transferConsentRecord(c.var.deps, c.get("user").id, c.req.param("id"))),
  );

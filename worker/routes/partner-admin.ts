/** Admins stopping a partner (issue 21 item 10): suspend, reinstate, and revoke a partner's API keys. */
import { Hono } from "hono";
import type { SignedInBindings } from "../env";
import { adminPartnerKeys, listPartners, setPartnerSuspended } from "../services/partner-admin";

/** Mounted in the admin sub-app (worker/api.ts). */
export const partnerAdmin = new Hono<SignedInBindings>()
  .get("/admin/partners", async (c) => c.json(await listPartners(c.var.deps)))
  .post("/admin/partners/:id/suspend", async (c) =>
    c.json(await setPartnerSuspended(c.var.deps, c.req.param("id"), true)),
  )
  .post("/admin/partners/:id/reinstate", async (c) =>
    c.json(await setPartnerSuspended(c.var.deps, c.req.param("id"), false)),
  )
  .get("/admin/partners/:id/keys", async (c) => c.json(await adminPartnerKeys(c.var.deps, c.req.param("id")).list()))
  .delete("/admin/partners/:id/keys/:keyId", async (c) =>
    c.json(await adminPartnerKeys(c.var.deps, c.req.param("id")).revoke(c.req.param("keyId"))),
  );

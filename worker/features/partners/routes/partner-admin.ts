/**
 * Admins stopping a partner: suspend, reinstate, and revoke a partner's API keys; and
 * whether its pings must carry a TrustedForm certificate.
 */
import { Hono } from "hono";
import { trustedFormRuleSchema } from "../../../../src/features/partners/schemas/partner-account";
import type { SignedInBindings } from "../../../env";
import { validateJson } from "../../../validation";
import { adminPartnerKeys, listPartners, setPartnerSuspended } from "../partner-admin";
import { setTrustedFormRequired } from "../partner-consent-rule";

/** Mounted in the admin sub-app (worker/api.ts). */
export const partnerAdmin = new Hono<SignedInBindings>()
  .get("/admin/partners", async (c) => c.json(await listPartners(c.var.deps)))
  .post("/admin/partners/:id/suspend", async (c) =>
    c.json(await setPartnerSuspended(c.var.deps, c.req.param("id"), true)),
  )
  .post("/admin/partners/:id/reinstate", async (c) =>
    c.json(await setPartnerSuspended(c.var.deps, c.req.param("id"), false)),
  )
  .post("/admin/partners/:id/trusted-form", validateJson(trustedFormRuleSchema), async (c) =>
    c.json(await setTrustedFormRequired(c.var.deps, c.req.param("id"), c.req.valid("json").required)),
  )
  .get("/admin/partners/:id/keys", async (c) => c.json(await adminPartnerKeys(c.var.deps, c.req.param("id")).list()))
  .delete("/admin/partners/:id/keys/:keyId", async (c) =>
    c.json(await adminPartnerKeys(c.var.deps, c.req.param("id")).revoke(c.req.param("keyId"))),
  );

/**
 * Partner accounts and the /partner portal's API: the invitation link sets the
 * first password; everything under /api/partner is for signed-in partners only (401 anonymous, 403 others).
 */
import { type Context, Hono } from "hono";
import {
  acceptInvitationSchema,
  invitationTokenSchema,
  newApiKeySchema,
  partnerTransfersQuerySchema,
} from "../../../../src/features/partners/schemas/partner-account";
import type { AppBindings, SignedInBindings } from "../../../env";
import { ForbiddenError } from "../../../errors";
import { REFUSAL } from "../../../middleware/policy";
import { rateLimit } from "../../../middleware/rate-limit";
import { sessions } from "../../../services/sessions";
import { validate, validateJson } from "../../../validation";
import { partnerApiKeys } from "../api-keys";
import { acceptInvitation, checkInvitation } from "../partner-accounts";
import { partnerSuspendedAt } from "../partner-admin";
import {
  findPartnerByUser,
  listPartnerTransfers,
  type PartnerProfile,
  partnerPayouts,
  partnerStats,
} from "../partner-portal";

/** The partner record of the signed-in partner user (the partner sub-app's guard has run). */
async function signedInPartner(c: Context<SignedInBindings>): Promise<PartnerProfile> {
  const partner = await findPartnerByUser(c.var.deps, c.get("user").id);
  if (!partner) throw new ForbiddenError(REFUSAL.partner);
  return partner;
}

/** The invitation link: mounted in the public sub-app (worker/api.ts). */
export const partnerInvitations = new Hono<AppBindings>()
  .post("/partner-invitation/check", validateJson(invitationTokenSchema), async (c) =>
    c.json(await checkInvitation(c.var.deps, c.req.valid("json").token)),
  )
  .post(
    "/partner-invitation/accept",
    rateLimit("partner-invitation"),
    validateJson(acceptInvitationSchema),
    async (c) => {
      const { token, password } = c.req.valid("json");
      const user = await acceptInvitation(c.var.deps, token, password);
      const session = sessions(c.var.deps);
      await session.invalidateUser(user.id);
      c.header("Set-Cookie", await session.create(user.id), { append: true });
      return c.json(user);
    },
  );

/** The /partner portal's API: mounted in the partner sub-app (worker/api.ts). */
export const partnerPortal = new Hono<SignedInBindings>()
  .get("/partner/profile", async (c) => {
    const partner = await signedInPartner(c);
    return c.json({ ...partner, suspendedAt: await partnerSuspendedAt(c.var.deps, partner.id) });
  })
  .get("/partner/keys", async (c) => {
    const partner = await signedInPartner(c);
    return c.json(await partnerApiKeys(c.var.deps, partner.id).list());
  })
  .post("/partner/keys", validateJson(newApiKeySchema), async (c) => {
    const partner = await signedInPartner(c);
    return c.json(await partnerApiKeys(c.var.deps, partner.id).create(c.req.valid("json").name), 201);
  })
  .delete("/partner/keys/:id", async (c) => {
    const partner = await signedInPartner(c);
    return c.json(await partnerApiKeys(c.var.deps, partner.id).revoke(c.req.param("id")));
  })
  .get("/partner/stats", async (c) => c.json(await partnerStats(c.var.deps, await signedInPartner(c))))
  .get("/partner/transfers", validate("query", partnerTransfersQuerySchema), async (c) => {
    const partner = await signedInPartner(c);
    return c.json(await listPartnerTransfers(c.var.deps, partner.id, c.req.valid("query")));
  })
  .get("/partner/payouts", async (c) => c.json(await partnerPayouts(c.var.deps, await signedInPartner(c))));

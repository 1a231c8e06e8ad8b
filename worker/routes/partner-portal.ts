/**
 * Partner accounts and the /partner portal's API (issue 15 items 1, 2, 6): the invitation link sets the
 * first password; everything under /api/partner is for signed-in partners only (401 anonymous, 403 others).
 */
import { Hono } from "hono";
import { acceptInvitationSchema, invitationTokenSchema } from "../../src/domain/schemas/partner-account";
import type { AppBindings } from "../env";
import { requirePartner } from "../middleware/auth";
import { rateLimit } from "../middleware/rate-limit";
import { acceptInvitation, checkInvitation } from "../services/partner-accounts";
import { sessions } from "../services/sessions";
import { validateJson } from "../validation";

export const partnerPortal = new Hono<AppBindings>()
  .post("/partner-invitation/check", validateJson(invitationTokenSchema), async (c) =>
    c.json(await checkInvitation(c.env, c.req.valid("json").token)),
  )
  .post(
    "/partner-invitation/accept",
    rateLimit("partner-invitation"),
    validateJson(acceptInvitationSchema),
    async (c) => {
      const { token, password } = c.req.valid("json");
      const user = await acceptInvitation(c.env, token, password);
      const session = sessions(c.env.DB, c.req.url);
      await session.invalidateUser(user.id);
      c.header("Set-Cookie", await session.create(user.id), { append: true });
      return c.json(user);
    },
  )
  .use("/partner/*", requirePartner);

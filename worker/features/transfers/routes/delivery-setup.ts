/** The e-mailed delivery-setup link's API (decision 0028): check the link, then save once. */
import { Hono } from "hono";
import { deliverySetupSchema, setupTokenSchema } from "../../../../src/features/transfers/schemas/delivery-setup";
import type { AppBindings } from "../../../env";
import { clientAddress, rateLimit } from "../../../middleware/rate-limit";
import { sessions } from "../../../services/sessions";
import { validateJson } from "../../../validation";
import { checkSetupLink, completeSetup } from "../setup-links";

export const deliverySetup = new Hono<AppBindings>()
  .post("/delivery-setup/check", validateJson(setupTokenSchema), async (c) =>
    c.json(await checkSetupLink(c.var.deps, c.req.valid("json").token, c.get("user"))),
  )
  .post("/delivery-setup", rateLimit("delivery-setup"), validateJson(deliverySetupSchema), async (c) => {
    const caller = { user: c.get("user"), address: clientAddress(c) };
    const { user, signIn } = await completeSetup(c.var.deps, c.req.valid("json"), caller);
    if (signIn) {
      // The password (or the new account's) was just given: a fresh session for that account.
      const session = sessions(c.var.deps);
      const current = c.get("sessionId");
      if (current) await session.invalidate(current);
      c.header("Set-Cookie", await session.create(user.id), { append: true });
    }
    return c.json({ message: "Delivery settings saved", user });
  });

/** The e-mailed delivery-setup link's API (issue 15 item 3): check the link, then save once and sign in. */
import { Hono } from "hono";
import { deliverySetupSchema, setupTokenSchema } from "../../src/domain/schemas/delivery-setup";
import type { AppBindings } from "../env";
import { rateLimit } from "../middleware/rate-limit";
import { checkSetupLink, completeSetup } from "../services/delivery-setup";
import { sessions } from "../services/sessions";
import { validateJson } from "../validation";

export const deliverySetup = new Hono<AppBindings>()
  .post("/delivery-setup/check", validateJson(setupTokenSchema), async (c) =>
    c.json(await checkSetupLink(c.env, c.req.valid("json").token)),
  )
  .post("/delivery-setup", rateLimit("delivery-setup"), validateJson(deliverySetupSchema), async (c) => {
    const user = await completeSetup(c.env, c.req.valid("json"));
    const session = sessions(c.env.DB, c.req.url);
    const current = c.get("sessionId");
    if (current) await session.invalidate(current);
    c.header("Set-Cookie", await session.create(user.id), { append: true });
    return c.json({ message: "Delivery settings saved", user });
  });

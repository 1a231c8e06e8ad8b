/** User administration (the users tab; product rules 28, 29): admins only. */
import { Hono } from "hono";
import { changePasswordSchema } from "../../src/features/accounts/schemas/auth";
import type { SignedInBindings } from "../env";
import { changeUserPassword, listUsers } from "../features/accounts/index";
import { activeKeysOfUser } from "../features/partners/partner-admin";
import { sessions } from "../services/sessions";
import { validateJson } from "../validation";

/** Mounted in the admin sub-app (worker/api.ts). */
export const users = new Hono<SignedInBindings>()
  .get("/users", async (c) => c.json(await listUsers(c.var.deps)))
  .post("/users/:userId/change-password", validateJson(changePasswordSchema), async (c) => {
    const userId = c.req.param("userId");
    const admin = c.get("user");
    await changeUserPassword(c.var.deps, admin.id, userId, c.req.valid("json"));
    const session = sessions(c.var.deps);
    await session.invalidateUser(userId);
    // An admin who changes their own password stays signed in on this device only.
    if (userId === admin.id) c.header("Set-Cookie", await session.create(userId), { append: true });
    // A partner's API keys outlive its password: the admin is shown the active ones to revoke.
    const partnerKeys = await activeKeysOfUser(c.var.deps, userId);
    return c.json({ message: "Password changed successfully", ...(partnerKeys ? { partnerKeys } : {}) });
  });

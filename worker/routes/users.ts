/** User administration (spec §2 users tab, §7): admins only. */
import { Hono } from "hono";
import { changePasswordSchema } from "../../src/domain/schemas/auth";
import type { AppBindings } from "../env";
import { errorJson } from "../http";
import { requireAdmin } from "../middleware/auth";
import { sessions } from "../services/sessions";
import { assertCurrentPassword, findUserById, listUsers, setPassword } from "../services/users";
import { validateJson } from "../validation";

export const users = new Hono<AppBindings>()
  .use("/users", requireAdmin)
  .use("/users/*", requireAdmin)
  .get("/users", async (c) => c.json(await listUsers(c.env.DB)))
  .post("/users/:userId/change-password", validateJson(changePasswordSchema), async (c) => {
    const userId = c.req.param("userId");
    const { newPassword, currentPassword } = c.req.valid("json");
    if (!(await findUserById(c.env.DB, userId))) return errorJson(c, 404, "User not found");
    const ownPassword = userId === c.get("user")?.id;
    if (ownPassword) await assertCurrentPassword(c.env.DB, userId, currentPassword);
    await setPassword(c.env.DB, userId, newPassword);
    const session = sessions(c.env.DB, c.req.url);
    await session.invalidateUser(userId);
    // An admin who changes their own password stays signed in on this device only.
    if (ownPassword) c.header("Set-Cookie", await session.create(userId), { append: true });
    return c.json({ message: "Password changed successfully" });
  });

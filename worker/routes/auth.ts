/** Sign-in, sign-out and password recovery (spec §7; PRODUCT.md D4, D10, D11). */
import { type Context, Hono } from "hono";
import { RESET_LINK_LIFETIME } from "../../src/domain/auth-limits";
import {
  forgotPasswordSchema,
  loginSchema,
  resetPasswordSchema,
  validateResetTokenSchema,
} from "../../src/domain/schemas/auth";
import type { AppBindings, SignedInBindings } from "../env";
import { errorJson } from "../http";
import { clientAddress, rateLimit } from "../middleware/rate-limit";
import { LOGOUT_CONFIRM_PAGE } from "../pages/logout-confirm";
import { sendMail, siteOrigin } from "../services/mail";
import { assertNewPasswordAllowed } from "../services/password-policy";
import { consumeResetToken, isResetTokenValid, issueResetToken } from "../services/reset-tokens";
import { sessions } from "../services/sessions";
import { checkCredentials } from "../services/sign-in";
import { findUserByEmail, setPassword } from "../services/users";
import { validateJson } from "../validation";

/** Ends the caller's session on the server, clears the cookie and sends them to the login page. */
async function endSession(c: Context<AppBindings>, status: 302 | 303) {
  const session = sessions(c.env.DB, c.req.url);
  const sessionId = c.get("sessionId");
  if (sessionId) await session.invalidate(sessionId);
  c.header("Set-Cookie", session.blankCookie(), { append: true });
  return c.redirect("/login", status);
}

/** Mounted in the public sub-app (worker/api.ts). */
export const auth = new Hono<AppBindings>()
  .post("/login", validateJson(loginSchema), async (c) => {
    const { username, password } = c.req.valid("json");
    const user = await checkCredentials(c.env.DB, { address: clientAddress(c), username }, password);
    c.header("Set-Cookie", await sessions(c.env.DB, c.req.url).create(user.id), { append: true });
    return c.json(user);
  })
  .get("/logout", async (c) => {
    // Only a click on the site itself, or an address typed into the browser, signs out by GET: another
    // site's link or image gets a page whose button POSTs (D11).
    const fetchSite = c.req.header("Sec-Fetch-Site");
    if (fetchSite !== "same-origin" && fetchSite !== "none") return c.html(LOGOUT_CONFIRM_PAGE);
    return endSession(c, 302);
  })
  .post("/logout", (c) => endSession(c, 303))
  .post("/forgot-password", rateLimit("forgot-password"), validateJson(forgotPasswordSchema), async (c) => {
    const { email } = c.req.valid("json");
    const origin = siteOrigin(c.env, c.req.url);
    // The work for a known address happens after the answer, so timing does not tell who has an account.
    c.executionCtx.waitUntil(
      (async () => {
        const user = await findUserByEmail(c.env.DB, email);
        if (!user) return;
        const token = await issueResetToken(c.env.DB, user.id);
        const link = `${origin}/reset-password?token=${token}`;
        await sendMail(c.env, {
          to: user.email,
          subject: "Reset your password",
          text: [
            `Hello ${user.firstName || user.username},`,
            "",
            "Someone asked to reset the password of your account. Open this link to choose a new one:",
            link,
            "",
            `The link expires in ${RESET_LINK_LIFETIME} and works once. If you did not ask for it, ignore this e-mail.`,
          ].join("\n"),
          secrets: [link],
        });
      })().catch((error) => console.error("Password reset e-mail failed", error)),
    );
    return c.json({ message: "If an account exists for that e-mail address, we sent a reset link to it." });
  })
  .post("/validate-reset-token", validateJson(validateResetTokenSchema), async (c) => {
    const { token } = c.req.valid("json");
    return c.json({ valid: await isResetTokenValid(c.env.DB, token) });
  })
  .post("/reset-password", validateJson(resetPasswordSchema), async (c) => {
    const { token, password } = c.req.valid("json");
    assertNewPasswordAllowed(password); // before the single-use link is spent
    const userId = await consumeResetToken(c.env.DB, token);
    if (!userId) return errorJson(c, 400, "This password reset link is invalid or has expired");
    await setPassword(c.env.DB, userId, password);
    await sessions(c.env.DB, c.req.url).invalidateUser(userId);
    return c.json({ message: "Password reset successful" });
  });

/** The signed-in user (any kind): mounted in the account sub-app (worker/api.ts). */
export const me = new Hono<SignedInBindings>().get("/me", (c) => c.json(c.get("user")));

/** Sign-in, sign-out and password recovery (product rules 29-33). */
import { type Context, Hono } from "hono";
import {
  forgotPasswordSchema,
  loginSchema,
  resetPasswordSchema,
  validateResetTokenSchema,
} from "../../../../src/features/accounts/schemas/auth";
import type { AppBindings, SignedInBindings } from "../../../env";
import { clientAddress, rateLimit } from "../../../middleware/rate-limit";
import { LOGOUT_CONFIRM_PAGE } from "../../../pages/logout-confirm";
import { siteOrigin } from "../../../services/mail";
import { sessions } from "../../../services/sessions";
import { validateJson } from "../../../validation";
import { isResetLinkValid, requestPasswordReset, resetPassword } from "../password-reset";
import { checkCredentials } from "../sign-in";

/** Ends the caller's session on the server, clears the cookie and sends them to the login page. */
async function endSession(c: Context<AppBindings>, status: 302 | 303) {
  const session = sessions(c.var.deps);
  const sessionId = c.get("sessionId");
  if (sessionId) await session.invalidate(sessionId);
  c.header("Set-Cookie", session.blankCookie(), { append: true });
  return c.redirect("/login", status);
}

/** Mounted in the public sub-app (worker/api.ts). */
export const auth = new Hono<AppBindings>()
  .post("/login", validateJson(loginSchema), async (c) => {
    const { username, password } = c.req.valid("json");
    const user = await checkCredentials(c.var.deps, { address: clientAddress(c), username }, password);
    c.header("Set-Cookie", await sessions(c.var.deps).create(user.id), { append: true });
    return c.json(user);
  })
  .get("/logout", async (c) => {
    // Only a click on the site itself, or an address typed into the browser, signs out by GET: another
    // site's link or image gets a page whose button POSTs (product rule 33).
    const fetchSite = c.req.header("Sec-Fetch-Site");
    if (fetchSite !== "same-origin" && fetchSite !== "none") return c.html(LOGOUT_CONFIRM_PAGE);
    return endSession(c, 302);
  })
  .post("/logout", (c) => endSession(c, 303))
  .post("/forgot-password", rateLimit("forgot-password"), validateJson(forgotPasswordSchema), async (c) => {
    // The work for a known address happens after the answer, so timing does not tell who has an account.
    c.executionCtx.waitUntil(
      requestPasswordReset(c.var.deps, c.req.valid("json").email, siteOrigin(c.var.deps, c.req.url)),
    );
    return c.json({ message: "If an account exists for that e-mail address, we sent a reset link to it." });
  })
  .post("/validate-reset-token", validateJson(validateResetTokenSchema), async (c) =>
    c.json({ valid: await isResetLinkValid(c.var.deps, c.req.valid("json").token) }),
  )
  .post("/reset-password", validateJson(resetPasswordSchema), async (c) => {
    const { token, password } = c.req.valid("json");
    await resetPassword(c.var.deps, token, password);
    return c.json({ message: "Password reset successful" });
  });

/** The signed-in user (any kind): mounted in the account sub-app (worker/api.ts). */
export const me = new Hono<SignedInBindings>().get("/me", (c) => c.json(c.get("user")));

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { INVITATION_TTL_HOURS } from "../../../../src/features/partners/schemas/partner-account";
import { testDb } from "../../../../tests/worker/factories";
import { storedRow } from "../../../../tests/worker/factories/rows";
import { callApi, latestMailTo, login, signedIn } from "../../../../tests/worker/helpers";
import { decide, invitationToken, submitApplication } from "../../../../tests/worker/partner-helpers";
import { partnerApplications, partners, singleUseLinks, users } from "../../../db/schema";
import { SESSION_COOKIE } from "../../../services/sessions";

const accept = (token: string, password = "partner-password-1") =>
  callApi("/api/partner-invitation/accept", { json: { token, password } });

describe("approving a partner application", () => {
  it("creates a partner user and partner record from the application and e-mails a 72-hour invitation", async () => {
    const { id, email } = await submitApplication({ payPerTransfer: "$20.50", timeZone: "CST", dailyCallCap: "40" });
    const before = Date.now();
    expect((await decide(id, "approved")).status).toBe(200);

    const db = testDb();
    const [user] = await db
      .select({ id: users.id, username: users.username, accountType: users.accountType, isAdmin: users.isAdmin })
      .from(users)
      .where(eq(users.email, email));
    expect(user).toMatchObject({ username: email, accountType: "partner", isAdmin: false });
    const partner = await storedRow(db, partners, eq(partners.applicationId, id));
    expect(partner).toMatchObject({
      user_id: user?.id,
      daily_call_cap: 40,
      pay_per_transfer_cents: 2050,
      payment_terms: "Net 15",
      time_zone: "America/Chicago",
      did_number: "5550001111",
    });

    const mail = await latestMailTo(email);
    expect(mail?.subject).toBe("Your partner account is approved");
    expect(mail?.text).toContain(`expires in ${INVITATION_TTL_HOURS} hours`);
    const token = await invitationToken(email);
    const [stored] = await db
      .select({
        tokenHash: singleUseLinks.tokenHash,
        purpose: singleUseLinks.purpose,
        expiresAt: singleUseLinks.expiresAt,
      })
      .from(singleUseLinks)
      .where(eq(singleUseLinks.userId, user?.id ?? ""));
    expect(stored?.purpose).toBe("partner_invitation");
    expect(stored?.tokenHash).not.toContain(token);
    expect(stored?.expiresAt.getTime()).toBeGreaterThanOrEqual(before + INVITATION_TTL_HOURS * 3_600_000);
    expect(stored?.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + INVITATION_TTL_HOURS * 3_600_000);
  });

  it("does not create an account for a rejected application", async () => {
    const { id, email } = await submitApplication();
    expect((await decide(id, "rejected")).status).toBe(200);
    expect(await testDb().$count(users, eq(users.email, email))).toBe(0);
    expect(await latestMailTo(email)).toBeNull();
  });

  it("answers 409 and changes nothing when the contact e-mail already has an account", async () => {
    const { user } = await signedIn();
    const { id } = await submitApplication({ contactEmail: user.email });
    const response = await decide(id, "approved");
    expect(response.status).toBe(409);
    expect((await response.json<{ message: string }>()).message).toContain("already exists");
    const [application] = await testDb()
      .select({ status: partnerApplications.status })
      .from(partnerApplications)
      .where(eq(partnerApplications.id, id));
    expect(application?.status).toBe("pending");
    expect(await testDb().$count(partners, eq(partners.applicationId, id))).toBe(0);
  });

  it("answers 400 when the pay per transfer holds no amount, leaving the application pending", async () => {
    const { id } = await submitApplication({ payPerTransfer: "negotiable" });
    const response = await decide(id, "approved");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: expect.stringContaining("negotiable") });
  });

  it("approves once: two admins approving at the same time create one partner", async () => {
    const { id } = await submitApplication();
    const statuses = (await Promise.all([decide(id, "approved"), decide(id, "approved")])).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 409]);
    expect(await testDb().$count(partners, eq(partners.applicationId, id))).toBe(1);
  });
});

describe("the invitation link", () => {
  it("shows the username, sets the password once, signs the partner in and then works no more", async () => {
    const { id, email } = await submitApplication({ businessName: "Dial Masters" });
    await decide(id, "approved");
    const token = await invitationToken(email);

    const check = await callApi("/api/partner-invitation/check", { json: { token } });
    expect(await check.json()).toEqual({ valid: true, username: email, businessName: "Dial Masters" });

    const before = await callApi("/api/login", { json: { username: email, password: "partner-password-1" } });
    expect(before.status).toBe(401);

    const accepted = await accept(token);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ username: email, accountType: "partner", isAdmin: false });
    expect(accepted.headers.getSetCookie().some((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`))).toBe(true);

    const again = await accept(token, "another-password-2");
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ message: "This invitation link is invalid or has expired" });
    expect(await (await callApi("/api/partner-invitation/check", { json: { token } })).json()).toEqual({
      valid: false,
    });
    const cookie = await login({ username: email, password: "partner-password-1" });
    const me = await callApi("/api/me", { cookie });
    expect(await me.json()).toMatchObject({ accountType: "partner" });
  });

  it("refuses an expired invitation", async () => {
    const { id, email } = await submitApplication();
    await decide(id, "approved");
    const token = await invitationToken(email);
    const [invited] = await testDb().select({ id: users.id }).from(users).where(eq(users.email, email));
    await testDb()
      .update(singleUseLinks)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(singleUseLinks.userId, invited?.id ?? ""));
    expect((await accept(token)).status).toBe(400);
  });

  it("applies the accounts' password rule and refuses unknown or malformed tokens with 400", async () => {
    const { id, email } = await submitApplication();
    await decide(id, "approved");
    const token = await invitationToken(email);
    const short = await accept(token, "short");
    expect(short.status).toBe(400);
    expect((await short.json<{ message: string }>()).message).toMatch(/at least \d+ characters/);
    expect((await accept("not-a-real-token")).status).toBe(400);
    expect((await callApi("/api/partner-invitation/accept", { json: { password: 12 } })).status).toBe(400);
    expect((await callApi("/api/partner-invitation/check", { json: [] })).status).toBe(400);
    // The failed attempts did not use the link up.
    expect((await accept(token)).status).toBe(200);
  });
});

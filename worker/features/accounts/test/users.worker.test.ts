import { describe, expect, it } from "vitest";
import { createBuyer, testDb } from "../../../../tests/worker/factories";
import { callApi, expectAdminOnly, login, signedIn } from "../../../../tests/worker/helpers";

describe("GET /api/users", () => {
  it("is for admins only", () => expectAdminOnly("/api/users"));

  it("lists every user with the spec's fields and no secrets", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const buyer = await createBuyer(testDb(), {
      firstName: "Rosa",
      lastName: "Diaz",
      phone: "2145550123",
      agencyName: "Lone Star Final Expense",
      role: "Agency Owner",
    });
    const response = await callApi("/api/users", { cookie });
    expect(response.status).toBe(200);
    const list = await response.json<Record<string, unknown>[]>();
    const row = list.find((u) => u.id === buyer.id);
    expect(row).toEqual({
      id: buyer.id,
      username: buyer.username,
      firstName: "Rosa",
      lastName: "Diaz",
      email: buyer.email,
      phone: "2145550123",
      agencyName: "Lone Star Final Expense",
      role: "Agency Owner",
      isAdmin: false,
      accountType: "buyer",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });
});

describe("POST /api/users/:id/change-password", () => {
  it("is for admins only", async () => {
    const target = await createBuyer(testDb());
    await expectAdminOnly(`/api/users/${target.id}/change-password`, { json: { newPassword: "long-enough-1" } });
  });

  it("changes the password and ends that user's sessions", async () => {
    const { cookie: adminCookie } = await signedIn({ isAdmin: true });
    const target = await createBuyer(testDb());
    const targetSession = await login(target);
    const response = await callApi(`/api/users/${target.id}/change-password`, {
      json: { newPassword: "long-enough-1" },
      cookie: adminCookie,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "Password changed successfully" });
    expect((await callApi("/api/me", { cookie: targetSession })).status).toBe(401);
    await login({ username: target.username, password: "long-enough-1" });
  });

  it("keeps an admin who changes their own password signed in on this device", async () => {
    const { user, cookie } = await signedIn({ isAdmin: true });
    const response = await callApi(`/api/users/${user.id}/change-password`, {
      json: { newPassword: "long-enough-2", currentPassword: user.password },
      cookie,
    });
    expect(response.status).toBe(200);
    const fresh = response.headers.getSetCookie().find((c) => c.startsWith("__Host-session=")) ?? "";
    expect((await callApi("/api/me", { cookie: fresh.split(";")[0] })).status).toBe(200);
    expect((await callApi("/api/me", { cookie })).status).toBe(401);
  });

  it("refuses a short password with the spec's message", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const target = await createBuyer(testDb());
    const response = await callApi(`/api/users/${target.id}/change-password`, {
      json: { newPassword: "short" },
      cookie,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: "Password must be at least 8 characters" });
  });

  it("asks admins changing their own password for the current one", async () => {
    const { user, cookie } = await signedIn({ isAdmin: true });
    const path = `/api/users/${user.id}/change-password`;
    const missing = await callApi(path, { json: { newPassword: "long-enough-3" }, cookie });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      message: "Enter your current password",
      errors: { currentPassword: "Enter your current password" },
    });
    const wrong = await callApi(path, {
      json: { newPassword: "long-enough-3", currentPassword: "not-it-at-all" },
      cookie,
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ message: "Current password is incorrect" });
    // Nothing changed: the old password still signs in, the session still works.
    expect((await callApi("/api/me", { cookie })).status).toBe(200);
    await login(user);
  });

  it("refuses one of the 10,000 most common passwords", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const target = await createBuyer(testDb());
    const response = await callApi(`/api/users/${target.id}/change-password`, {
      json: { newPassword: "Sunshine" },
      cookie,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ message: "This password is too common. Please choose another." });
    await login(target);
  });

  it("answers 404 for an unknown user", async () => {
    const { cookie } = await signedIn({ isAdmin: true });
    const response = await callApi("/api/users/no-such-user/change-password", {
      json: { newPassword: "long-enough-1" },
      cookie,
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "User not found" });
  });
});

describe("page guards", () => {
  it.each(["/dashboard", "/transfer-checkout", "/dashboard/", "/admin/index.html"])(
    "%s sends anonymous visitors to /login and back",
    async (path) => {
      const response = await callApi(`${path}?tab=x`);
      expect(response.status).toBe(302);
      const clean = path.replace(/\/index\.html$|\/$/, "");
      expect(response.headers.get("location")).toBe(`/login?next=${encodeURIComponent(`${clean}?tab=x`)}`);
    },
  );

  it.each(["/admin", "/admin-orders"])("%s answers 403 to a signed-in non-admin", async (path) => {
    const { cookie } = await signedIn();
    const response = await callApi(path, { cookie });
    expect(response.status).toBe(403);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });
});

import type { Page } from "@playwright/test";
import { DEMO_ADMIN, DEMO_BUYER } from "../../scripts/demo-data.ts";
import { ADMIN_TAB_IDS, adminPath } from "../../src/islands/admin/tabs.ts";
import { createPartner } from "../worker/factories/partners";
import { createUser, e2eDb, latestMailTo, linkPrintedFor } from "./database";
import { expect, test, url } from "./fixtures";
import { toast } from "./pay";

async function logIn(page: Page, username: string, password: string) {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

const at = (pathname: string) => (u: URL) => u.pathname === pathname;

test.describe("login", () => {
  test("sends the demo buyer to /dashboard and mirrors the user in the `user` store", async ({ page }) => {
    await page.goto("/login");
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await expect(page).toHaveURL(at("/dashboard"));
    // The dashboard mirrors what /api/me says about the session.
    const stored = () => page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null"));
    await expect.poll(stored).toMatchObject({ username: DEMO_BUYER.username, isAdmin: false });
  });

  test("sends the demo admin to /admin, where the users tab lists accounts", async ({ page }) => {
    await page.goto("/login");
    await logIn(page, DEMO_ADMIN.username, DEMO_ADMIN.password);
    await expect(page).toHaveURL(at("/admin"));
    await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
    await expect(page.getByText("Upload and manage leads")).toBeVisible();
    for (const card of [
      "New Orders",
      "Upload Aged Leads",
      "Upload Callback Opportunities",
      "Manage Users",
      "Partner Applications",
      "Fulfilment",
      "Do Not Call Lists",
      "Do Not Call Requests",
    ]) {
      await expect(page.getByText(card, { exact: true }).first()).toBeAttached();
    }
    await page.getByRole("link", { name: /Manage Users/ }).click();
    await expect(page.getByText(`@${DEMO_BUYER.username}`, { exact: true })).toBeVisible();
    await expect(page.getByText("Admin", { exact: true }).first()).toBeAttached();
    await expect(page).toHaveURL(at("/admin/users"));
    // Tabs read as words; each is its own page named by its id (decision 0074).
    const tabs = page.getByRole("navigation", { name: "Admin sections" }).getByRole("link");
    await expect(tabs).toHaveText([
      "Aged Leads",
      "Callbacks",
      "Users",
      "Partner Applications",
      "Fulfilment",
      "Do Not Call",
      "Do Not Call Requests",
    ]);
    await tabs.filter({ hasText: "Partner Applications" }).click();
    await expect(page).toHaveURL(at("/admin/aff-network"));
    await expect(tabs.filter({ hasText: "Partner Applications" })).toHaveAttribute("aria-current", "page");
  });

  test("focuses the username field once the form is ready", async ({ page }) => {
    await page.goto("/login");
    await expect(page.locator(":focus")).toHaveAttribute("autocomplete", "username");
  });

  test("shows the spec's messages for empty fields and for wrong credentials", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Username is required")).toBeVisible();
    await expect(page.getByText("Password is required")).toBeVisible();

    await logIn(page, DEMO_BUYER.username, "wrong-password");
    await expect(toast(page, "Login Failed")).toContainText("Invalid credentials");
    await expect(page).toHaveURL(/\/login/);
  });

  test("links to password recovery and to the survey", async ({ page }) => {
    await page.goto("/login");
    await expect(page.locator('a[href="/forgot-password"]')).toHaveCount(1);
    await expect(page.locator('main a[href="/survey"]')).toHaveCount(1);
  });

  test("brings an anonymous visitor of /dashboard back there after login", async ({ page }) => {
    await page.goto("/dashboard");
    await expect(page).toHaveURL((u) => `${u.pathname}${u.search}` === "/login?next=%2Fdashboard");
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await expect(page).toHaveURL(at("/dashboard"));
  });

  test("brings an anonymous visitor of a dashboard page, or of its old address, to that page after login", async ({
    page,
  }) => {
    await page.goto("/dashboard/my-orders");
    await expect(page).toHaveURL((u) => `${u.pathname}${u.search}` === "/login?next=%2Fdashboard%2Fmy-orders");
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await expect(page).toHaveURL(at("/dashboard/my-orders"));
    await expect(page.getByRole("heading", { name: "My Orders" })).toBeVisible();

    await page.context().clearCookies();
    await page.goto("/dashboard?view=lead-tracker");
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await expect(page).toHaveURL(at("/dashboard/lead-tracker"));
  });

  for (const next of [
    "/%09/evil.example",
    "//evil.example",
    "/\\evil.example",
    "https://evil.example",
    "javascript:alert(1)",
  ]) {
    test(`never follows next=${next} off the site: the buyer lands on /dashboard`, async ({ page }) => {
      // The raw value as a link would carry it (the first is already percent-encoded).
      const query = next.includes("%") ? next : encodeURIComponent(next);
      await page.goto(`/login?next=${query}`);
      await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
      await expect(page).toHaveURL(at("/dashboard"));
      expect(new URL(page.url()).origin).toBe(new URL(url("/")).origin);
    });
  }

  test("sets the session as a Secure, HttpOnly __Host- cookie the browser keeps", async ({ page }) => {
    await page.goto("/login");
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await expect(page).toHaveURL(at("/dashboard"));
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => cookie.name)).toEqual(["__Host-session"]);
    expect(cookies[0]).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax", path: "/" });
  });

  test("another site cannot log the buyer out: its link gets a Logout button that POSTs", async ({ page }) => {
    await page.goto("/login");
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await expect(page).toHaveURL(at("/dashboard"));
    // http://localhost is another site than http://127.0.0.1: a link from there is a cross-site navigation.
    const shop = new URL(url("/"));
    const otherSite = new URL(shop);
    otherSite.hostname = shop.hostname === "localhost" ? "127.0.0.1" : "localhost";
    await page.goto(otherSite.toString());
    await page.evaluate((target) => window.location.assign(target), url("/api/logout"));
    await expect(page.getByRole("heading", { name: "Log out?" })).toBeVisible();
    expect((await page.request.get("/api/me")).status()).toBe(200);

    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(at("/login"));
    expect((await page.request.get("/api/me")).status()).toBe(401);
  });

  test("answers 403 when a signed-in buyer opens /admin, any admin page or /admin-orders", async ({ page }) => {
    await page.goto("/login");
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await expect(page).toHaveURL(at("/dashboard"));
    for (const path of [...ADMIN_TAB_IDS.map(adminPath), "/admin-orders"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("403");
    }
  });

  test("logout ends the session and clears the stored user", async ({ page }) => {
    await page.goto("/login");
    await logIn(page, DEMO_ADMIN.username, DEMO_ADMIN.password);
    await expect(page).toHaveURL(at("/admin"));
    await page.getByRole("link", { name: "Logout" }).click();
    await expect(page).toHaveURL(at("/login"));
    expect(await page.evaluate(() => localStorage.getItem("user"))).toBeNull();
    const me = await page.request.get("/api/me");
    expect(me.status()).toBe(401);
  });
});

test.describe("password recovery", () => {
  test("forgot → e-mailed link → reset → log in with the new password", async ({ page }) => {
    // Two e-mail look-ups through wrangler, four form posts and two logins: slow on a busy 2-core machine.
    test.setTimeout(90_000);
    const user = await createUser();
    await page.goto("/forgot-password");
    await page.getByRole("button", { name: "Send Reset Email" }).click();
    await expect(page.getByText("Please enter a valid email address")).toBeVisible();
    await page.getByLabel("Email").fill(user.email);
    await page.getByRole("button", { name: "Send Reset Email" }).click();
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await expect(page.getByText("expires in 1 hour")).toBeVisible();
    await expect(page.getByRole("button", { name: "Try Again" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to Login" })).toBeVisible();

    await expect.poll(() => linkPrintedFor(user.email)).toBeTruthy();
    const link = linkPrintedFor(user.email) ?? "";
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(token.length).toBeGreaterThanOrEqual(43);
    // The stored copy of the mail never holds the link.
    expect((await latestMailTo(user.email))?.text).not.toContain(token);
    await page.goto(link);
    await page.getByLabel("New Password").fill("short");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    await page.getByLabel("New Password").fill("a-new-password-9");
    await page.getByLabel("Confirm Password").fill("a-different-one");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page.getByText("Passwords don't match")).toBeVisible();
    // The server-rendered form never sends a password back: both fields are typed again.
    await page.getByLabel("New Password").fill("a-new-password-9");
    await page.getByLabel("Confirm Password").fill("a-new-password-9");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await expect(page.getByRole("heading", { name: "Password Reset Complete" })).toBeVisible();
    await page.getByRole("link", { name: "Continue to Login" }).click();
    await expect(page).toHaveURL(at("/login"));
    await logIn(page, user.username, "a-new-password-9");
    await expect(page).toHaveURL(at("/dashboard"));

    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Invalid Reset Link" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Request New Reset Link" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
  });

  test("says so when the link has no token", async ({ page }) => {
    await page.goto("/reset-password");
    await expect(page.getByRole("heading", { name: "Invalid Reset Link" })).toBeVisible();
    await expect(toast(page, "The password reset link is invalid or missing")).toBeVisible();
  });
});

test.describe("user admin", () => {
  test("an admin changes a user's password and that user's old session stops working", async ({
    page: userPage,
    newPage,
  }) => {
    // Two accounts, two browsers, a dialog and two logins: slow on a busy 2-core machine.
    test.setTimeout(90_000);
    const user = await createUser();
    await userPage.goto("/login");
    await logIn(userPage, user.username, user.password);
    await expect(userPage).toHaveURL(at("/dashboard"));
    expect((await userPage.request.get("/api/me")).status()).toBe(200);

    const admin = await newPage();
    await admin.goto("/login?next=%2Fadmin%3Ftab%3Dusers");
    await logIn(admin, DEMO_ADMIN.username, DEMO_ADMIN.password);
    await expect(admin).toHaveURL(at("/admin/users"));
    const card = admin.getByRole("listitem").filter({ hasText: `@${user.username}` });
    await card.getByRole("button", { name: "Change Password" }).click();
    const dialog = admin.getByRole("dialog");
    await expect(dialog).toContainText(`@${user.username}`);
    await dialog.getByLabel("New Password").fill("changed-by-admin-1");
    await expect(dialog.getByLabel("New Password")).toHaveAttribute("type", "password");
    await dialog.getByRole("button", { name: "Show" }).click();
    await expect(dialog.getByLabel("New Password")).toHaveAttribute("type", "text");
    await dialog.getByLabel("Confirm Password").fill("changed-by-admin-1");
    await dialog.getByRole("button", { name: "Change", exact: true }).click();
    await expect(toast(admin, "Password changed successfully")).toBeVisible();
    await expect(dialog).toHaveCount(0);

    expect((await userPage.request.get("/api/me")).status()).toBe(401);
    await userPage.goto("/login");
    await logIn(userPage, user.username, "changed-by-admin-1");
    await expect(userPage).toHaveURL(at("/dashboard"));
  });

  test("an admin resetting a partner's password is shown its active keys and revokes them", async ({
    adminPage: admin,
  }) => {
    test.setTimeout(90_000);
    const { user, key } = await createPartner(e2eDb(), {
      businessName: "Keyed Calls",
      didNumber: "5550100000",
      dailyCallCap: 100,
      payPerTransferCents: 2000,
      keyName: "Floor dialer",
      user: { firstName: "Kim", lastName: "Keyholder" },
    });
    const withKey = () =>
      admin.request.get(url("/api/v1/transfers/none"), { headers: { Authorization: `Bearer ${key}` } });
    expect((await withKey()).status()).toBe(404);

    await admin.goto("/admin?tab=users");
    const card = admin.getByRole("listitem").filter({ hasText: `@${user.username}` });
    await card.getByRole("button", { name: "Change Password" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel("New Password").fill("partner-reset-by-admin-1");
    await dialog.getByLabel("Confirm Password").fill("partner-reset-by-admin-1");
    await dialog.getByRole("button", { name: "Change", exact: true }).click();
    await expect(dialog.getByText("this partner's API keys still work")).toBeVisible();
    const keys = dialog.getByRole("list", { name: "Active API keys" });
    await expect(keys.getByRole("listitem").filter({ hasText: "Floor dialer" })).toHaveCount(1);
    await keys.getByRole("button", { name: "Revoke Floor dialer" }).click();
    await expect(toast(admin, "Floor dialer now answers 401.")).toBeVisible();
    await expect(dialog.getByText("No active API keys.")).toBeVisible();
    expect((await withKey()).status()).toBe(401);
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toHaveCount(0);
  });

  test("an admin changing their own password is asked for the current one", async ({ page: admin }) => {
    test.setTimeout(90_000);
    const self = await createUser({ isAdmin: true });
    await admin.goto("/login?next=%2Fadmin%3Ftab%3Dusers");
    await logIn(admin, self.username, self.password);
    await expect(admin).toHaveURL(at("/admin/users"));
    const card = admin.getByRole("listitem").filter({ hasText: `@${self.username}` });
    await card.getByRole("button", { name: "Change Password" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel("Current Password").fill("not-my-password");
    await dialog.getByLabel("New Password").fill("my-own-new-pass-1");
    await dialog.getByLabel("Confirm Password").fill("my-own-new-pass-1");
    await dialog.getByRole("button", { name: "Change", exact: true }).click();
    await expect(toast(admin, "Current password is incorrect")).toBeVisible();

    await dialog.getByLabel("Current Password").fill(self.password);
    await dialog.getByRole("button", { name: "Change", exact: true }).click();
    await expect(toast(admin, "Password changed successfully")).toBeVisible();
    // Still signed in on this device.
    expect((await admin.request.get("/api/me")).status()).toBe(200);

    // Someone else's password needs no current password: the field is not shown.
    const other = admin.getByRole("listitem").filter({ hasText: `@${DEMO_BUYER.username}` });
    await other.getByRole("button", { name: "Change Password" }).click();
    await expect(admin.getByRole("dialog").getByLabel("New Password")).toBeVisible();
    await expect(admin.getByRole("dialog").getByLabel("Current Password")).toHaveCount(0);
  });
});

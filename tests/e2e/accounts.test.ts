import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEMO_ADMIN, DEMO_BUYER } from "../../scripts/demo-data.ts";
import { setupBrowser } from "./browser";
import { createUser, latestMailTo, resetLinkPrintedFor } from "./database";
import { toastText } from "./pay";

const { newPage, url } = setupBrowser();

async function logIn(page: Page, username: string, password: string) {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

describe("login", () => {
  it("sends the demo buyer to /dashboard and mirrors the user in the `user` store", async () => {
    const page = await newPage();
    await page.goto(url("/login"));
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await page.waitForURL("**/dashboard");
    // The dashboard mirrors what /api/me says about the session.
    const stored = () => page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null"));
    await expect.poll(stored, { timeout: 10_000 }).toMatchObject({ username: DEMO_BUYER.username, isAdmin: false });
  });

  it("sends the demo admin to /admin, where the users tab lists accounts", async () => {
    const page = await newPage();
    await page.goto(url("/login"));
    await logIn(page, DEMO_ADMIN.username, DEMO_ADMIN.password);
    await page.waitForURL("**/admin");
    await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
    expect(await page.getByText("Upload and manage leads").isVisible()).toBe(true);
    for (const card of [
      "New Orders",
      "Upload Aged Leads",
      "Upload Callback Opportunities",
      "Manage Users",
      "Partner Applications",
    ]) {
      expect(await page.getByText(card, { exact: true }).count()).toBeGreaterThan(0);
    }
    await page.getByRole("button", { name: /Manage Users/ }).click();
    await page.getByText(`@${DEMO_BUYER.username}`, { exact: true }).waitFor();
    expect(await page.getByText("Admin", { exact: true }).count()).toBeGreaterThan(0);
    expect(page.url()).toContain("tab=users");
    // Tabs read as words; the URL keeps the ids.
    expect(await page.getByRole("tab").allTextContents()).toEqual([
      "Aged Leads",
      "Callbacks",
      "Users",
      "Partner Applications",
    ]);
    await page.getByRole("tab", { name: "Partner Applications" }).click();
    await expect.poll(() => page.url()).toContain("tab=aff-network");
  });

  it("focuses the username field once the form is ready", async () => {
    const page = await newPage();
    await page.goto(url("/login"));
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.autocomplete), {
        timeout: 10_000,
      })
      .toBe("username");
  });

  it("shows the spec's messages for empty fields and for wrong credentials", async () => {
    const page = await newPage();
    await page.goto(url("/login"));
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Username is required").waitFor();
    await page.getByText("Password is required").waitFor();

    await logIn(page, DEMO_BUYER.username, "wrong-password");
    await expect.poll(() => toastText(page)).toContain("Login Failed");
    expect(await toastText(page)).toContain("Invalid credentials");
    expect(page.url()).toContain("/login");
  });

  it("links to password recovery and to the survey", async () => {
    const page = await newPage();
    await page.goto(url("/login"));
    expect(await page.locator('a[href="/forgot-password"]').count()).toBe(1);
    expect(await page.locator('main a[href="/survey"]').count()).toBe(1);
  });

  it("brings an anonymous visitor of /dashboard back there after login", async () => {
    const page = await newPage();
    await page.goto(url("/dashboard"));
    await page.waitForURL("**/login?next=%2Fdashboard");
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await page.waitForURL("**/dashboard");
  });

  it.each(["/%09/evil.example", "//evil.example", "/\\evil.example", "https://evil.example", "javascript:alert(1)"])(
    "never follows next=%s off the site: the buyer lands on /dashboard",
    async (next) => {
      const page = await newPage();
      // The raw value as a link would carry it (the first is already percent-encoded).
      const query = next.includes("%") ? next : encodeURIComponent(next);
      await page.goto(url(`/login?next=${query}`));
      await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
      await page.waitForURL((target) => target.pathname === "/dashboard");
      expect(new URL(page.url()).origin).toBe(new URL(url("/")).origin);
    },
  );

  it("sets the session as a Secure, HttpOnly __Host- cookie the browser keeps", async () => {
    const page = await newPage();
    await page.goto(url("/login"));
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await page.waitForURL("**/dashboard");
    const cookies = await page.context().cookies();
    expect(cookies.map((cookie) => cookie.name)).toEqual(["__Host-session"]);
    expect(cookies[0]).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax", path: "/" });
  });

  it("another site cannot log the buyer out: its link gets a Logout button that POSTs", async () => {
    const page = await newPage();
    await page.goto(url("/login"));
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await page.waitForURL("**/dashboard");
    // http://localhost is another site than http://127.0.0.1: a link from there is a cross-site navigation.
    const shop = new URL(url("/"));
    const otherSite = new URL(shop);
    otherSite.hostname = shop.hostname === "localhost" ? "127.0.0.1" : "localhost";
    await page.goto(otherSite.toString());
    await page.evaluate((target) => window.location.assign(target), url("/api/logout"));
    await page.getByRole("heading", { name: "Log out?" }).waitFor();
    expect((await page.request.get(url("/api/me"))).status()).toBe(200);

    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL((target) => target.pathname === "/login");
    expect((await page.request.get(url("/api/me"))).status()).toBe(401);
  });

  it("answers 403 when a signed-in buyer opens /admin or /admin-orders", async () => {
    const page = await newPage();
    await page.goto(url("/login"));
    await logIn(page, DEMO_BUYER.username, DEMO_BUYER.password);
    await page.waitForURL("**/dashboard");
    for (const path of ["/admin", "/admin-orders"]) {
      const response = await page.goto(url(path));
      expect(response?.status()).toBe(403);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain("403");
    }
  });

  it("logout ends the session and clears the stored user", async () => {
    const page = await newPage();
    await page.goto(url("/login"));
    await logIn(page, DEMO_ADMIN.username, DEMO_ADMIN.password);
    await page.waitForURL("**/admin");
    await page.getByRole("link", { name: "Logout" }).click();
    await page.waitForURL("**/login");
    expect(await page.evaluate(() => localStorage.getItem("user"))).toBeNull();
    const me = await page.request.get(url("/api/me"));
    expect(me.status()).toBe(401);
  });
});

describe("password recovery", () => {
  it("forgot → e-mailed link → reset → log in with the new password", async () => {
    const user = await createUser();
    const page = await newPage();
    await page.goto(url("/forgot-password"));
    await page.getByRole("button", { name: "Send Reset Email" }).click();
    await page.getByText("Please enter a valid email address").waitFor();
    await page.getByLabel("Email").fill(user.email);
    await page.getByRole("button", { name: "Send Reset Email" }).click();
    await page.getByRole("heading", { name: "Check Your Email" }).waitFor();
    expect(await page.getByText("expires in 1 hour").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Try Again" }).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Back to Login" }).isVisible()).toBe(true);

    await expect.poll(() => resetLinkPrintedFor(user.email)).toBeTruthy();
    const link = resetLinkPrintedFor(user.email) ?? "";
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(token.length).toBeGreaterThanOrEqual(43);
    // The stored copy of the mail never holds the link.
    expect(latestMailTo(user.email)?.text).not.toContain(token);
    await page.goto(link ?? "");
    await page.getByLabel("New Password").fill("short");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByText("Password must be at least 8 characters").waitFor();
    await page.getByLabel("New Password").fill("a-new-password-9");
    await page.getByLabel("Confirm Password").fill("a-different-one");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByText("Passwords don't match").waitFor();
    // The server-rendered form never sends a password back: both fields are typed again.
    await page.getByLabel("New Password").fill("a-new-password-9");
    await page.getByLabel("Confirm Password").fill("a-new-password-9");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("heading", { name: "Password Reset Complete" }).waitFor();
    await page.getByRole("link", { name: "Continue to Login" }).click();
    await page.waitForURL("**/login");
    await logIn(page, user.username, "a-new-password-9");
    await page.waitForURL("**/dashboard");

    await page.goto(link ?? "");
    await page.getByRole("heading", { name: "Invalid Reset Link" }).waitFor();
    expect(await page.getByRole("link", { name: "Request New Reset Link" }).getAttribute("href")).toBe(
      "/forgot-password",
    );
    // Two e-mail look-ups through wrangler, four form posts and two logins: slow on a busy 2-core machine.
  }, 60_000);

  it("says so when the link has no token", async () => {
    const page = await newPage();
    await page.goto(url("/reset-password"));
    await page.getByRole("heading", { name: "Invalid Reset Link" }).waitFor();
    await expect.poll(() => toastText(page)).toContain("The password reset link is invalid or missing");
  });
});

describe("user admin", () => {
  it("an admin changes a user's password and that user's old session stops working", async () => {
    const user = await createUser();
    const userPage = await newPage();
    await userPage.goto(url("/login"));
    await logIn(userPage, user.username, user.password);
    await userPage.waitForURL("**/dashboard");
    expect((await userPage.request.get(url("/api/me"))).status()).toBe(200);

    const admin = await newPage();
    await admin.goto(url("/login?next=%2Fadmin%3Ftab%3Dusers"));
    await logIn(admin, DEMO_ADMIN.username, DEMO_ADMIN.password);
    await admin.waitForURL("**/admin?tab=users");
    const card = admin.getByRole("listitem").filter({ hasText: `@${user.username}` });
    await card.getByRole("button", { name: "Change Password" }).click();
    const dialog = admin.getByRole("dialog");
    expect(await dialog.textContent()).toContain(`@${user.username}`);
    await dialog.getByLabel("New Password").fill("changed-by-admin-1");
    expect(await dialog.getByLabel("New Password").getAttribute("type")).toBe("password");
    await dialog.getByRole("button", { name: "Show" }).click();
    expect(await dialog.getByLabel("New Password").getAttribute("type")).toBe("text");
    await dialog.getByLabel("Confirm Password").fill("changed-by-admin-1");
    await dialog.getByRole("button", { name: "Change", exact: true }).click();
    await expect.poll(() => toastText(admin)).toContain("Password changed successfully");
    await expect.poll(() => dialog.count()).toBe(0);

    expect((await userPage.request.get(url("/api/me"))).status()).toBe(401);
    await userPage.goto(url("/login"));
    await logIn(userPage, user.username, "changed-by-admin-1");
    await userPage.waitForURL("**/dashboard");
    // Two accounts, two browsers, a dialog and two logins: slow on a busy 2-core machine.
  }, 60_000);

  it("an admin changing their own password is asked for the current one", async () => {
    const self = await createUser({ isAdmin: true });
    const admin = await newPage();
    await admin.goto(url("/login?next=%2Fadmin%3Ftab%3Dusers"));
    await logIn(admin, self.username, self.password);
    await admin.waitForURL("**/admin?tab=users");
    const card = admin.getByRole("listitem").filter({ hasText: `@${self.username}` });
    await card.getByRole("button", { name: "Change Password" }).click();
    const dialog = admin.getByRole("dialog");
    await dialog.getByLabel("Current Password").fill("not-my-password");
    await dialog.getByLabel("New Password").fill("my-own-new-pass-1");
    await dialog.getByLabel("Confirm Password").fill("my-own-new-pass-1");
    await dialog.getByRole("button", { name: "Change", exact: true }).click();
    await expect.poll(() => toastText(admin)).toContain("Current password is incorrect");

    await dialog.getByLabel("Current Password").fill(self.password);
    await dialog.getByRole("button", { name: "Change", exact: true }).click();
    await expect.poll(() => toastText(admin)).toContain("Password changed successfully");
    // Still signed in on this device.
    expect((await admin.request.get(url("/api/me"))).status()).toBe(200);

    // Someone else's password needs no current password: the field is not shown.
    const other = admin.getByRole("listitem").filter({ hasText: `@${DEMO_BUYER.username}` });
    await other.getByRole("button", { name: "Change Password" }).click();
    await admin.getByRole("dialog").getByLabel("New Password").waitFor();
    expect(await admin.getByRole("dialog").getByLabel("Current Password").count()).toBe(0);
  }, 60_000);
});

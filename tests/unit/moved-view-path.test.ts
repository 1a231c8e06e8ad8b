/**
 * Decision 0074: the one-island screens' old addresses (/dashboard?view=…, /admin?tab=…) map to each view's own
 * page, the other query parameters kept, an unknown id to the landing page.
 */
import { describe, expect, it } from "vitest";
import { ADMIN_LANDING, ADMIN_TAB_IDS, adminPath } from "../../src/islands/admin/tabs";
import { DASHBOARD_LANDING, DASHBOARD_VIEWS, dashboardPath } from "../../src/islands/dashboard/views";
import { movedViewPath } from "../../src/ui/links";

const dashboard = (address: string) =>
  movedViewPath(new URL(address, "https://shop.example"), "view", DASHBOARD_VIEWS, DASHBOARD_LANDING, dashboardPath);
const admin = (address: string) =>
  movedViewPath(new URL(address, "https://shop.example"), "tab", ADMIN_TAB_IDS, ADMIN_LANDING, adminPath);

describe("movedViewPath", () => {
  it("sends every dashboard view and admin tab to its own page, the landing one to /dashboard or /admin", () => {
    expect(DASHBOARD_VIEWS.map((view) => dashboard(`/dashboard?view=${view}`))).toEqual(
      DASHBOARD_VIEWS.map((view) => (view === "aged-leads" ? "/dashboard" : `/dashboard/${view}`)),
    );
    expect(ADMIN_TAB_IDS.map((tab) => admin(`/admin?tab=${tab}`))).toEqual(
      ADMIN_TAB_IDS.map((tab) => (tab === "aged-leads" ? "/admin" : `/admin/${tab}`)),
    );
  });

  it("keeps the other query parameters, in their order", () => {
    expect(dashboard("/dashboard?view=return-lead&transfer=t-1")).toBe("/dashboard/return-lead?transfer=t-1");
    expect(dashboard("/dashboard?a=1&view=my-leads&b=2")).toBe("/dashboard/my-leads?a=1&b=2");
    expect(admin("/admin?tab=dnc-requests&phone=%2B15551234567")).toBe("/admin/dnc-requests?phone=%2B15551234567");
  });

  it("sends an unknown or empty id to the landing page", () => {
    expect(dashboard("/dashboard?view=nope&utm=mail")).toBe("/dashboard?utm=mail");
    expect(dashboard("/dashboard?view=")).toBe("/dashboard");
    expect(admin("/admin?tab=constructor")).toBe("/admin");
  });

  it("leaves an address without the parameter alone", () => {
    expect(dashboard("/dashboard")).toBeUndefined();
    expect(dashboard("/dashboard?transfer=t-1")).toBeUndefined();
    expect(admin("/admin?view=users")).toBeUndefined();
  });
});

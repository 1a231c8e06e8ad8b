/** Route walk: the partner sub-app is for partners only; partners reach no buyer or admin route. */
import { describe, expect, it } from "vitest";
import { type CallOptions, callApi, signedIn } from "../../../../tests/worker/helpers";
import { signedInPartner } from "../../../../tests/worker/partner-helpers";

type Route = [method: string, path: string, options?: Omit<CallOptions, "cookie" | "method">];

/** Every route of the /partner portal's API. */
const PARTNER_ROUTES: Route[] = [
  ["GET", "/api/partner/profile"],
  ["GET", "/api/partner/keys"],
  ["POST", "/api/partner/keys", { json: { name: "Dialer" } }],
  ["DELETE", "/api/partner/keys/some-key"],
  ["GET", "/api/partner/stats"],
  ["GET", "/api/partner/transfers"],
  ["GET", "/api/partner/payouts"],
];

/** Buyer screens' APIs. */
const BUYER_ROUTES: Route[] = [
  ["GET", "/api/aged-leads"],
  ["POST", "/api/bulk-purchase-leads", { json: { leadIds: ["x"] } }],
  ["GET", "/api/my-leads"],
  ["GET", "/api/my-leads.csv"],
  ["GET", "/api/my-orders"],
  ["POST", "/api/my-orders/x/payment"],
  ["POST", "/api/call-transfer-order", { json: {} }],
  ["POST", "/api/create-payment-intent", { json: { amount: 39, callCount: 1 } }],
  ["GET", "/api/tracker/transfers"],
  ["GET", "/api/tracker/transfers.csv"],
  ["GET", "/api/tracker/orders"],
  ["POST", "/api/tracker/orders/x/pause"],
  ["POST", "/api/tracker/orders/x/resume"],
  ["GET", "/api/returns"],
  ["GET", "/api/returns/eligible"],
  ["POST", "/api/returns", { json: {} }],
  ["GET", "/api/balance"],
];

/** Admin APIs. */
const ADMIN_ROUTES: Route[] = [
  ["GET", "/api/users"],
  ["POST", "/api/users/x/change-password", { json: { newPassword: "long-enough-1" } }],
  ["GET", "/api/affnetwork-signups"],
  ["PATCH", "/api/affnetwork-signups/x/status", { json: { status: "approved" } }],
  ["POST", "/api/affnetwork-signups/x/invitation"],
  ["GET", "/api/download-document/x"],
  ["GET", "/api/transfer-orders"],
  ["PATCH", "/api/transfer-orders/x/status", { json: { status: "cancelled" } }],
  ["PUT", "/api/transfer-orders/x/delivery", { json: {} }],
  ["POST", "/api/transfer-orders/x/setup-link"],
  ["GET", "/api/admin/aged-leads"],
  ["POST", "/api/admin/aged-leads", { json: {} }],
  ["GET", "/api/admin/callback-opportunities"],
  ["POST", "/api/admin/callback-opportunities", { json: {} }],
  ["POST", "/api/bulk-upload-aged-leads", { json: {} }],
  ["GET", "/api/imports/x"],
  ["GET", "/api/imports/x/report.csv"],
  ["GET", "/api/admin/fulfilment"],
  ["GET", "/api/admin/returns"],
  ["POST", "/api/admin/returns/x/decision", { json: { decision: "approved" } }],
];

async function expectStatus(route: Route, cookie: string | undefined, status: number, who: string) {
  const [method, path, options] = route;
  const response = await callApi(path, { ...options, method, ...(cookie ? { cookie } : {}) });
  expect(response.status, `${method} ${path} as ${who}`).toBe(status);
  expect(await response.json(), `${method} ${path} as ${who}`).toEqual({ message: expect.any(String) });
}

describe("the partner portal's API", () => {
  it("answers 401 to anonymous callers, 403 to buyers and admins", async () => {
    const buyer = await signedIn();
    const admin = await signedIn({ isAdmin: true });
    for (const route of PARTNER_ROUTES) {
      await expectStatus(route, undefined, 401, "anonymous");
      await expectStatus(route, buyer.cookie, 403, "buyer");
      await expectStatus(route, admin.cookie, 403, "admin");
    }
  });

  it("answers a partner on every route", async () => {
    const partner = await signedInPartner();
    for (const [method, path, options] of PARTNER_ROUTES) {
      const response = await callApi(path, { ...options, method, cookie: partner.cookie });
      // The made-up key id is the partner's to ask about, and unknown: 404; everything else succeeds.
      const expected = path.endsWith("/some-key") ? 404 : method === "POST" ? 201 : 200;
      expect(response.status, `${method} ${path}`).toBe(expected);
    }
  });
});

describe("a partner", () => {
  it("gets 403 from every buyer and admin API", async () => {
    const partner = await signedInPartner();
    for (const route of [...BUYER_ROUTES, ...ADMIN_ROUTES]) await expectStatus(route, partner.cookie, 403, "partner");
  });

  it("gets the 403 page on buyer and admin pages; buyers and admins get it on /partner", async () => {
    const partner = await signedInPartner();
    for (const page of ["/dashboard", "/transfer-checkout", "/admin", "/admin-orders"]) {
      expect((await callApi(page, { cookie: partner.cookie })).status, page).toBe(403);
    }
    for (const other of [await signedIn(), await signedIn({ isAdmin: true })]) {
      expect((await callApi("/partner", { cookie: other.cookie })).status).toBe(403);
    }
  });

  it("is sent to /login from /partner when signed out", async () => {
    const response = await callApi("/partner");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login?next=%2Fpartner");
  });
});

/**
 * The islands' one contract with the Worker (decision 0019). The `expectTypeOf` lines
 * are checked by `tsc` (`npx tsc --noEmit -p tsconfig.json`, which includes tests/): a route that stops
 * answering a field an island reads fails there. The `it` blocks check what `call` does at run time.
 */
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import type { OrderStatus } from "../../src/features/orders/orders";
import { type Answer, ApiError, api, call, errorMessage } from "../../src/lib/api";

describe("response types come from the Worker's routes", () => {
  it("types the answers the islands read", () => {
    // AdminOrders: the list, its statuses and totals.
    type TransferOrder = Answer<(typeof api)["transfer-orders"]["$get"]>[number];
    expectTypeOf<TransferOrder["status"]>().toEqualTypeOf<OrderStatus>();
    expectTypeOf<TransferOrder>().toHaveProperty("totalTransfers").toEqualTypeOf<number>();
    expectTypeOf<TransferOrder>().toHaveProperty("totalPrice").toEqualTypeOf<number>();
    // @ts-expect-error a field the route does not answer is not there to read
    expectTypeOf<TransferOrder>().toHaveProperty("notAField");

    // The buyer's marketplace page and the payment card it opens.
    type AgedLeadPage = Answer<(typeof api)["aged-leads"]["$get"]>;
    expectTypeOf<AgedLeadPage["items"][number]>().toHaveProperty("priceCents").toEqualTypeOf<number>();
    expectTypeOf<AgedLeadPage>().toHaveProperty("pageCount").toEqualTypeOf<number>();
    type Purchase = Answer<(typeof api)["bulk-purchase-leads"]["$post"]>;
    expectTypeOf<Purchase>().toHaveProperty("clientSecret").toEqualTypeOf<string>();
    expectTypeOf<Purchase>().toHaveProperty("count").toEqualTypeOf<number>();

    // The return pages poll an order's status.
    type OrderStatusAnswer = Answer<(typeof api.orders)[":orderId"]["status"]["$get"]>;
    expectTypeOf<OrderStatusAnswer["status"]>().toEqualTypeOf<OrderStatus>();

    // A bulk import's progress, and the users list of the admin panel.
    type ImportStatus = Answer<(typeof api.imports)[":id"]["$get"]>;
    expectTypeOf<ImportStatus>().toHaveProperty("done").toEqualTypeOf<boolean>();
    expectTypeOf<Answer<typeof api.users.$get>[number]>().toHaveProperty("isAdmin").toEqualTypeOf<boolean>();

    // Error answers are not success bodies: `call` never resolves to `{ message }` of a 4xx.
    type Payment = Answer<(typeof api)["create-payment-intent"]["$post"]>;
    expectTypeOf<Payment>().toHaveProperty("clientSecret").toEqualTypeOf<string>();
  });

  it("types the requests too: a body the route's schema refuses does not compile", () => {
    type PurchaseBody = Parameters<(typeof api)["bulk-purchase-leads"]["$post"]>[0]["json"];
    expectTypeOf<PurchaseBody>().toHaveProperty("leadIds").toEqualTypeOf<string[]>();
    // @ts-expect-error the route reads leadIds, not ids
    const wrong: PurchaseBody = { ids: ["a"] };
    expect(wrong).toBeDefined();
  });
});

describe("call", () => {
  afterEach(() => vi.unstubAllGlobals());

  function answer(status: number, body: string, contentType = "application/json") {
    const fetch = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response(body, { status, headers: { "Content-Type": contentType } }),
    );
    vi.stubGlobal("fetch", fetch);
    return fetch;
  }

  it("sends JSON to the route's own-origin URL, and answers the parsed body", async () => {
    const fetch = answer(200, JSON.stringify({ clientSecret: "cs", orderId: "o1", count: 2 }));
    const result = await call(api["bulk-purchase-leads"].$post({ json: { leadIds: ["a", "b"] } }));
    expect(result).toMatchObject({ orderId: "o1", count: 2 });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe("/api/bulk-purchase-leads");
    expect(init?.method).toBe("POST");
    expect(new Headers(init?.headers).get("Content-Type")).toBe("application/json");
    expect(init?.body).toBe(JSON.stringify({ leadIds: ["a", "b"] }));
  });

  it("puts path parameters and queries into the URL, and sends no body on GET", async () => {
    const fetch = answer(200, "{}");
    await call(api.orders[":orderId"].status.$get({ param: { orderId: "o 1" }, query: { client_secret: "s&t" } }));
    await call(api["aged-leads"].$get({ query: { page: "2", location: "TX" } }));
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([
      "/api/orders/o 1/status?client_secret=s%26t",
      "/api/aged-leads?page=2&location=TX",
    ]);
    expect(fetch.mock.calls[1]?.[1].body).toBeUndefined();
  });

  it("answers null for an empty success body", async () => {
    answer(200, "");
    await expect(call(api.partner.keys[":id"].$delete({ param: { id: "k1" } }))).resolves.toBeNull();
  });

  it("throws the server's readable message, field errors and body on a refusal", async () => {
    answer(409, JSON.stringify({ message: "Some leads are taken.", unavailable: ["a"], errors: { leadIds: "taken" } }));
    const error = await call(api["bulk-purchase-leads"].$post({ json: { leadIds: ["a"] } })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      serverMessage: "Some leads are taken.",
      fieldErrors: { leadIds: "taken" },
    });
    expect((error as ApiError).body.unavailable).toEqual(["a"]);
    expect(errorMessage(error, "fallback")).toBe("Some leads are taken.");
  });

  it("keeps a non-JSON error body as the message, and falls back when there is none", async () => {
    answer(502, "Bad gateway", "text/plain");
    const error = await call(api.users.$get()).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, serverMessage: "Bad gateway" });
    expect(errorMessage(new TypeError("Failed to fetch"), "Please try again.")).toBe("Please try again.");
  });

  it("sends a multipart form as the request's own body, with no JSON content type", async () => {
    const fetch = answer(201, JSON.stringify({ message: "Application submitted", id: "x" }));
    const form = new FormData();
    form.set("businessName", "Acme");
    await call(api["affnetwork-signup"].$post(undefined, { init: { body: form } }));
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.body).toBe(form);
    expect(new Headers(init?.headers).get("Content-Type")).toBeNull();
  });
});

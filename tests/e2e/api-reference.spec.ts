/**
 * Decision 0081: the partner API reference (/api/v1/docs) is Scalar's UI served by the shop alone. In
 * Chromium it draws every operation and every webhook event of the OpenAPI document without a request
 * leaving the site; its script is the shop's own file, kept a year; without JavaScript the page still
 * links the document.
 */
import { API_REFERENCE_SCRIPT } from "../../src/config/api-reference";
import { expect, test, url } from "./fixtures";

const DOCS = "/api/v1/docs";
const DOCUMENT = "/api/v1/openapi.json";

interface Document {
  info: { title: string };
  paths: Record<string, Record<string, { summary: string }>>;
  webhooks: Record<string, unknown>;
}

test("draws every operation and webhook event of the document, from the shop alone", async ({ page, request }) => {
  const document = (await (await request.get(DOCUMENT)).json()) as Document;
  const site = new URL(url("/")).origin;
  const elsewhere: string[] = [];
  await page.route(
    (address) => address.origin !== site,
    (route) => {
      elsewhere.push(route.request().url());
      return route.abort();
    },
  );
  await page.goto(DOCS);
  await expect(page.getByRole("heading", { level: 1, name: document.info.title })).toBeVisible();
  // The sidebar lists them all (the page draws the sections below the fold as they scroll in).
  const sidebar = page.getByRole("complementary");
  const entry = (name: string, method: string) =>
    sidebar.getByRole("link", { name: `${name} HTTP Method: ${method.toUpperCase()}`, exact: true });
  const operations = Object.values(document.paths).flatMap((methods) => Object.entries(methods));
  expect(operations.length).toBeGreaterThan(3);
  for (const [method, { summary }] of operations) await expect(entry(summary, method)).toBeVisible();
  const events = Object.keys(document.webhooks);
  expect(events).toContain("transfer.billable");
  for (const event of events) await expect(entry(event, "post")).toBeVisible();
  // The first operation, and the webhooks' section itself.
  await expect(page.getByRole("heading", { name: operations[0]?.[1].summary, exact: true })).toBeVisible();
  await entry("transfer.billable", "post").click();
  await expect(page.getByRole("heading", { name: "Webhooks" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "transfer.billable", exact: true })).toBeInViewport();
  // Nothing that leads off the site for the API client (Scalar's hosted one).
  await expect(sidebar.getByRole("link", { name: "Open API Client" })).toHaveCount(0);
  expect(elsewhere).toEqual([]);
});

test("loads its script from the shop, which browsers keep for a year", async ({ request }) => {
  const html = await (await request.get(DOCS)).text();
  expect(html).toContain(`<script src="${API_REFERENCE_SCRIPT}"`);
  const script = await request.get(API_REFERENCE_SCRIPT);
  expect(script.status()).toBe(200);
  expect(script.headers()["content-type"]).toMatch(/javascript/);
  expect(script.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});

test("without JavaScript, says where the OpenAPI document is", async ({ newPage }) => {
  const page = await newPage({ javaScriptEnabled: false });
  await page.goto(DOCS);
  await expect(page.getByRole("heading", { level: 1, name: "Partner API reference" })).toBeVisible();
  await expect(page.getByRole("link", { name: DOCUMENT })).toHaveAttribute("href", DOCUMENT);
});

/** Issue 14: every route's JavaScript stays within its gzip budget (the bench prints the figures). */
import { describe, expect, it } from "vitest";
import { KB, ROUTES, weighPage } from "../../scripts/page-weights.ts";
import { setupVisitors } from "./browser";

const { baseURL, contextFor } = setupVisitors();

describe("JavaScript per page load (gzip)", () => {
  it.each(ROUTES)("$path ($visitor) stays within its budget", async (route) => {
    const page = await (await contextFor(route.visitor)).newPage();
    const weight = await weighPage(page, baseURL, route.path);
    await page.close();
    const scripts = weight.scripts.map((s) => `${s.url} ${(s.gzip / KB).toFixed(1)} KB`).join(", ");
    expect(weight.js.gzip, `${route.path} loads ${scripts || "no scripts"}`).toBeLessThanOrEqual(route.budget);
  });

  it("counts what a page really loads (an island page is not empty)", async () => {
    const page = await (await contextFor("anonymous")).newPage();
    const weight = await weighPage(page, baseURL, "/checkout");
    await page.close();
    // Preact, its React compat layer and the checkout island are ~25 KB gzip: far less means scripts were missed.
    expect(weight.js.gzip).toBeGreaterThan(15 * KB);
    expect(weight.scripts.length).toBeGreaterThan(1);
  });
});

/**
 * Decisions 0016 and 0032: every route's JavaScript stays within its gzip budget, every island page (each
 * dashboard view and admin tab included) within 100 KB with React. The bench prints the figures.
 */
import { KB, ROUTES, VISITOR_VIEWPORT, weighPage } from "../../scripts/page-weights.ts";
import { expect, setupValue, test } from "./fixtures";

test.describe("JavaScript per page load (gzip)", () => {
  for (const route of ROUTES) {
    test(`${route.path} (${route.visitor}) stays within its budget`, async ({ newPage }) => {
      const as = route.visitor === "anonymous" ? undefined : route.visitor;
      const page = await newPage({ as, viewport: VISITOR_VIEWPORT });
      const weight = await weighPage(page, setupValue("E2E_BASE_URL"), route.path);
      const scripts = weight.scripts.map((s) => `${s.url} ${(s.gzip / KB).toFixed(1)} KB`).join(", ");
      expect(weight.js.gzip, `${route.path} loads ${scripts || "no scripts"}`).toBeLessThanOrEqual(route.budget);
    });
  }

  test("counts what a page really loads (an island page is not empty)", async ({ newPage }) => {
    const page = await newPage({ viewport: VISITOR_VIEWPORT });
    const weight = await weighPage(page, setupValue("E2E_BASE_URL"), "/checkout");
    // React and react-dom are ~70 KB gzip of the checkout's first load: far less means scripts were missed.
    expect(weight.js.gzip).toBeGreaterThan(60 * KB);
    expect(weight.scripts.length).toBeGreaterThan(1);
  });
});

/**
 * Decisions 0016 and 0032: every route's JavaScript stays within its gzip budget, every island page (each
 * dashboard view and admin tab included) within 100 KB with React. The bench prints the figures.
 * The load a route is weighed on (its own visitor, a fresh context) is also that visitor's console-error
 * audit of the route (decision 0032): no console error or warning, no uncaught error, every island
 * hydrated, as console-errors.spec.ts checks the route for the other visitors (decision 0076).
 */
import { ISLAND_PAGE_BUDGET, KB, ROUTES, VISITOR_VIEWPORT, weighPage } from "../../scripts/page-weights.ts";
import { watchConsole } from "./console-problems";
import { expect, hydrated, settled, setupValue, test, url } from "./fixtures";

const listed = (weight: Awaited<ReturnType<typeof weighPage>>) =>
  weight.scripts.map((s) => `${s.url} ${(s.gzip / KB).toFixed(1)} KB`).join(", ") || "no scripts";

test.describe("JavaScript per page load (gzip)", () => {
  for (const route of ROUTES) {
    test(`${route.path} (${route.visitor}) stays within its budget, logs no console error or warning and hydrates its islands`, async ({
      newPage,
    }) => {
      const as = route.visitor === "anonymous" ? undefined : route.visitor;
      const page = await newPage({ as, viewport: VISITOR_VIEWPORT });
      const problems = watchConsole(page, url(route.path));
      const weight = await weighPage(page, setupValue("E2E_BASE_URL"), route.path);
      expect(weight.js.gzip, `${route.path} loads ${listed(weight)}`).toBeLessThanOrEqual(route.budget);
      // As console-errors.spec.ts: hydrated, settled (weighPage waited for that once), and the page it settled
      // on (/get-started forwards to /survey) hydrated too.
      await hydrated(page);
      await settled(page);
      await hydrated(page);
      expect(problems).toEqual([]);
    });
  }

  // The agents' form loads with the panel, after the page: its chunks count too (docs/decisions/0071).
  test("My Orders with an order's Agents panel and its add-agent form open stays within 100 KB", async ({
    newPage,
  }) => {
    const page = await newPage({ as: "buyer", viewport: VISITOR_VIEWPORT });
    const weight = await weighPage(page, setupValue("E2E_BASE_URL"), "/dashboard/my-orders", async () => {
      await hydrated(page);
      // The demo buyer has two live-transfer orders: the first one's panel.
      await page.getByRole("button", { name: "Agents", exact: true }).first().click();
      const panel = page.getByTestId("agents-panel");
      await panel.getByRole("button", { name: "Add an agent" }).click();
      const form = panel.getByRole("form", { name: "Add an agent" });
      await expect(form.getByLabel("Agent's name")).toBeEnabled();
      await expect(form.getByLabel("Time zone")).toBeVisible();
    });
    const message = `My Orders with the agents' form loads ${listed(weight)}`;
    expect(weight.js.gzip, message).toBeLessThanOrEqual(ISLAND_PAGE_BUDGET);
    // The panel's and the form's own chunks were counted: the page alone is lighter.
    expect(
      weight.scripts.some((script) => /AgentForm/.test(script.url)),
      message,
    ).toBe(true);
  });

  test("counts what a page really loads (an island page is not empty)", async ({ newPage }) => {
    const page = await newPage({ viewport: VISITOR_VIEWPORT });
    const weight = await weighPage(page, setupValue("E2E_BASE_URL"), "/checkout");
    // React and react-dom are ~70 KB gzip of the checkout's first load: far less means scripts were missed.
    expect(weight.js.gzip).toBeGreaterThan(60 * KB);
    expect(weight.scripts.length).toBeGreaterThan(1);
  });
});

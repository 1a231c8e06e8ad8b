/**
 * Issue 14: no route logs a console error (or throws) for any visitor: anonymous, the demo buyer and
 * the demo admin, each in their own browser context, on a phone-sized screen.
 */
import { ROUTES, VISITOR_VIEWPORT, type Visitor } from "../../scripts/page-weights.ts";
import { expect, test, url } from "./fixtures";

const visitors: Visitor[] = ["anonymous", "buyer", "admin"];

for (const visitor of visitors) {
  test.describe(`as ${visitor}`, () => {
    for (const path of ROUTES.map((route) => route.path)) {
      test(`${path} logs no console error`, async ({ newPage }) => {
        const page = await newPage({ as: visitor === "anonymous" ? undefined : visitor, viewport: VISITOR_VIEWPORT });
        const errors: string[] = [];
        const pageUrl = url(path);
        page.on("console", (message) => {
          if (message.type() !== "error") return;
          // Chromium reports the document's own 4xx (the 404 page, the 403 page) as a failed resource:
          // that status is the page's answer, not something failing on it.
          const documentStatus =
            message.location().url === pageUrl && /^Failed to load resource: .* status of 4\d\d/.test(message.text());
          if (!documentStatus) errors.push(`console: ${message.text()} (${message.location().url})`);
        });
        page.on("pageerror", (error) => errors.push(`uncaught: ${error.message}`));
        await page.goto(path, { waitUntil: "networkidle" });
        // Islands finish their first requests and effects after the network goes quiet.
        await page.waitForTimeout(300);
        expect(errors).toEqual([]);
      });
    }
  });
}

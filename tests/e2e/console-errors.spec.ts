/**
 * Decision 0032: no route logs a console error or warning (or throws) for any visitor
 * (anonymous, the demo buyer, admin and partner, each in their own browser context, on a phone-sized
 * screen), and every island the server rendered hydrates. A hydration mismatch is reported by React as a
 * recoverable error (an uncaught error in production), so it fails here too.
 */
import { ROUTES, VISITOR_VIEWPORT, type Visitor } from "../../scripts/page-weights.ts";
import { expect, hydrated, test, url } from "./fixtures";

const visitors: Visitor[] = ["anonymous", "buyer", "admin", "partner"];

for (const visitor of visitors) {
  test.describe(`as ${visitor}`, () => {
    for (const path of ROUTES.map((route) => route.path)) {
      test(`${path} logs no console error or warning and hydrates its islands`, async ({ newPage }) => {
        const page = await newPage({ as: visitor === "anonymous" ? undefined : visitor, viewport: VISITOR_VIEWPORT });
        const problems: string[] = [];
        const pageUrl = url(path);
        page.on("console", (message) => {
          if (message.type() !== "error" && message.type() !== "warning") return;
          // Chromium reports the document's own 4xx (the 404 page, the 403 page) as a failed resource:
          // that status is the page's answer, not something failing on it.
          const documentStatus =
            message.location().url === pageUrl && /^Failed to load resource: .* status of 4\d\d/.test(message.text());
          if (!documentStatus) problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
        });
        page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
        await page.goto(path, { waitUntil: "networkidle" });
        await hydrated(page);
        // Islands finish their first requests and effects after the network goes quiet.
        await page.waitForTimeout(300);
        expect(problems).toEqual([]);
      });
    }
  });
}

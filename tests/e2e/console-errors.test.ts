/**
 * Issue 14: no route logs a console error (or throws) for any visitor: anonymous, the demo buyer and
 * the demo admin, each in their own browser context, on a phone-sized screen.
 */
import { describe, expect, it } from "vitest";
import { ROUTES, type Visitor } from "../../scripts/page-weights.ts";
import { setupVisitors } from "./browser";

const { baseURL, contextFor } = setupVisitors();

const visitors: Visitor[] = ["anonymous", "buyer", "admin"];

describe.each(visitors)("as %s", (visitor) => {
  it.each(ROUTES.map((route) => route.path))("%s logs no console error", async (path) => {
    const page = await (await contextFor(visitor)).newPage();
    const errors: string[] = [];
    const pageUrl = new URL(path, baseURL).toString();
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
    await page.close();
    expect(errors).toEqual([]);
  });
});

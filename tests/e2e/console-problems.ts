/**
 * What the console-error audit fails on (decision 0032), for a page about to open `pageUrl`: every console
 * error or warning and every uncaught error, as readable lines. Used by console-errors.spec.ts and, for each
 * route's own visitor, by page-weight.spec.ts, which checks it on the load it weighs (decision 0076).
 */
import type { Page } from "@playwright/test";

export function watchConsole(page: Page, pageUrl: string): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error" && message.type() !== "warning") return;
    // Chromium reports the document's own 4xx (the 404 page, the 403 page) as a failed resource:
    // that status is the page's answer, not something failing on it.
    const documentStatus =
      message.location().url === pageUrl && /^Failed to load resource: .* status of 4\d\d/.test(message.text());
    if (!documentStatus) problems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

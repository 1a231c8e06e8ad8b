import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { launchChromium } from "../../scripts/chromium.ts";

/** One browser per test file; `newPage()` gives a fresh context (cookies, storage) each time. */
export function setupBrowser() {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  const baseURL = inject("baseURL");
  return {
    baseURL,
    url: (path: string) => new URL(path, baseURL).toString(),
    /** `bypassCSP` lets an audit inject axe-core (the app keeps its CSP). */
    async newPage(options: { viewport?: { width: number; height: number }; bypassCSP?: boolean } = {}): Promise<Page> {
      if (!browser) throw new Error("browser not started");
      const context = await browser.newContext({
        baseURL,
        viewport: options.viewport ?? { width: 1280, height: 900 },
        bypassCSP: options.bypassCSP ?? false,
      });
      return context.newPage();
    },
  };
}

import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { launchChromium } from "../../scripts/chromium.ts";

const randomOctet = () => Math.floor(Math.random() * 250) + 1;

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
        // Each page is its own client, as Cloudflare's CF-Connecting-IP would tell them apart: per-address
        // limits (10 anonymous payment intents a minute) then count one test's requests, not the whole run's.
        extraHTTPHeaders: { "CF-Connecting-IP": `10.${randomOctet()}.${randomOctet()}.${randomOctet()}` },
        bypassCSP: options.bypassCSP ?? false,
      });
      return context.newPage();
    },
  };
}

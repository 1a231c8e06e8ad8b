import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, inject } from "vitest";
import { launchChromium } from "../../scripts/chromium.ts";
import { type Visitor, visitorContext } from "../../scripts/page-weights.ts";

const randomOctet = () => Math.floor(Math.random() * 250) + 1;

/** Launches one browser for the test file and closes it after. */
function browserPerFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error("browser not started");
    return browser;
  };
}

/** One browser per test file; `newPage()` gives a fresh context (cookies, storage) each time. */
export function setupBrowser() {
  const browser = browserPerFile();
  const baseURL = inject("baseURL");
  return {
    baseURL,
    url: (path: string) => new URL(path, baseURL).toString(),
    /** `bypassCSP` lets an audit inject axe-core (the app keeps its CSP). */
    async newPage(options: { viewport?: { width: number; height: number }; bypassCSP?: boolean } = {}): Promise<Page> {
      const context = await browser().newContext({
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

/** One browser per test file and one signed-in context per visitor, made on first use. */
export function setupVisitors() {
  const browser = browserPerFile();
  const contexts = new Map<Visitor, BrowserContext>();
  const baseURL = inject("baseURL");
  return {
    baseURL,
    async contextFor(visitor: Visitor): Promise<BrowserContext> {
      let context = contexts.get(visitor);
      if (!context) {
        context = await visitorContext(browser(), baseURL, visitor);
        contexts.set(visitor, context);
      }
      return context;
    },
  };
}

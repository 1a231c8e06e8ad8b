/**
 * The browser tests' `test` and `expect`. Fixtures:
 * - `baseURL` and `url()`: the server global-setup.ts started;
 * - every context is its own client, as Cloudflare's CF-Connecting-IP would tell them apart, so per-address
 *   limits (10 anonymous payment intents a minute) count one test's requests, not the whole run's;
 * - `newPage()`: one more page in a fresh context (its own cookies, storage and address), optionally signed
 *   in, with its own viewport, `bypassCSP` (which lets an audit inject axe-core; the app keeps its CSP) or
 *   scripts switched off;
 *   by default it takes the test's `viewport` and `bypassCSP` options (`test.use`);
 * - `buyerPage` / `adminPage`: a page signed in as the demo buyer / admin through storage state, saved once
 *   per run under the test output folder;
 * - `newContext()` (worker-scoped, for `beforeAll`): a fresh context as `newPage()` makes one, which the
 *   caller closes, for a group of tests that share one visitor's cookies and cache.
 * `settled(page)` waits until a page has loaded what it loads by itself (scripts/lib/settled.ts).
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { AxeBuilder } from "@axe-core/playwright";
import {
  type Browser,
  type BrowserContext,
  test as base,
  expect,
  type Page,
  type ViewportSize,
} from "@playwright/test";
import { signIn as signInDemo, type Visitor } from "../../scripts/page-weights.ts";

export { followRequests, settled } from "../../scripts/lib/settled.ts";
export { expect };

/** What global-setup.ts put in the environment. */
export function setupValue(name: "E2E_BASE_URL" | "E2E_PERSIST_TO" | "E2E_SERVER_LOG"): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the browser tests with \`playwright test\``);
  return value;
}

export const url = (path: string) => new URL(path, setupValue("E2E_BASE_URL")).toString();

const randomOctet = () => Math.floor(Math.random() * 250) + 1;
const clientAddress = () => ({ "CF-Connecting-IP": `10.${randomOctet()}.${randomOctet()}.${randomOctet()}` });

/** Makes the page's requests come from a client of their own, in a context that other pages share. */
export const asNewClient = (page: Page) => page.setExtraHTTPHeaders(clientAddress());

export type SignedIn = Exclude<Visitor, "anonymous">;

interface PageOptions {
  viewport?: ViewportSize;
  bypassCSP?: boolean;
  /** Opens the page signed in as a demo account. */
  as?: SignedIn;
  /** False: the page's scripts never run (what the server's HTML shows by itself). */
  javaScriptEnabled?: boolean;
}

interface TestFixtures {
  newPage: (options?: PageOptions) => Promise<Page>;
  buyerPage: Page;
  adminPage: Page;
}

interface WorkerFixtures {
  /** The storage-state file of a signed-in demo account, made on first use. */
  storageStateOf: (visitor: SignedIn) => Promise<string>;
  /** A fresh context (the options as `newPage`'s; default viewport 1280 × 900, CSP kept), closed by the caller. */
  newContext: (options?: PageOptions) => Promise<BrowserContext>;
}

async function saveStorageState(browser: Browser, visitor: SignedIn, file: string) {
  const context = await browser.newContext({ baseURL: setupValue("E2E_BASE_URL"), extraHTTPHeaders: clientAddress() });
  await signInDemo(context, visitor);
  await context.storageState({ path: file });
  await context.close();
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  baseURL: async ({ baseURL }, use) => use(baseURL ?? setupValue("E2E_BASE_URL")),
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => use({ ...extraHTTPHeaders, ...clientAddress() }),

  storageStateOf: [
    async ({ browser }, use, workerInfo) => {
      // One folder per worker slot: two workers never write one file at once (playwright.config.ts).
      const folder = join(workerInfo.project.outputDir, ".auth", String(workerInfo.parallelIndex));
      mkdirSync(folder, { recursive: true });
      const made = new Map<SignedIn, Promise<string>>();
      await use((visitor) => {
        let file = made.get(visitor);
        if (!file) {
          const path = join(folder, `${visitor}.json`);
          // The output folder is emptied when a run starts: a file there was saved by this run (by a worker
          // that a failed test replaced), so the run signs each account in once.
          file = existsSync(path) ? Promise.resolve(path) : saveStorageState(browser, visitor, path).then(() => path);
          made.set(visitor, file);
        }
        return file;
      });
    },
    { scope: "worker" },
  ],

  newContext: [
    async ({ browser, storageStateOf }, use) => {
      await use(async (options = {}) =>
        browser.newContext({
          baseURL: setupValue("E2E_BASE_URL"),
          viewport: options.viewport ?? { width: 1280, height: 900 },
          extraHTTPHeaders: clientAddress(),
          bypassCSP: options.bypassCSP ?? false,
          storageState: options.as ? await storageStateOf(options.as) : undefined,
          javaScriptEnabled: options.javaScriptEnabled ?? true,
        }),
      );
    },
    { scope: "worker" },
  ],

  newPage: async ({ newContext, viewport, bypassCSP }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (options = {}) => {
      const context = await newContext({
        ...options,
        viewport: options.viewport ?? viewport ?? undefined,
        bypassCSP: options.bypassCSP ?? bypassCSP,
      });
      contexts.push(context);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
  },
  buyerPage: async ({ newPage }, use) => use(await newPage({ as: "buyer" })),
  adminPage: async ({ newPage }, use) => use(await newPage({ as: "admin" })),
});

/**
 * Waits until every island of the page has started hydrating (Astro drops an island's `ssr` mark then): the
 * server's HTML shows controls at once, and they act once React runs them. A view whose code loads lazily
 * hydrates a moment later: wait for its own control to be enabled.
 */
export async function hydrated(page: Page) {
  await expect(page.locator("astro-island[ssr]")).toHaveCount(0);
}

/** Signs `page` in through the login form (`/login?next=…`) and waits until it arrives at `next`. */
export async function signIn(page: Page, username: string, password: string, next: string) {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL((u) => `${u.pathname}${u.search}` === next);
}

/**
 * An axe-core audit of what `page` shows now (the caller adds its tags), reporting only violations in full.
 * A page without frames (every page here) is audited by axe.run in the page itself, AxeBuilder's legacy
 * mode, which finds what its default finds for one frame without opening and closing a blank page per audit
 * to merge the frames' results in (decision 0076); a page with frames still gets the default.
 */
export const axeOf = (page: Page) =>
  new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).setLegacyMode(page.frames().length === 1);

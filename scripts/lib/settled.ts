/**
 * When a page in Chromium has finished loading what it loads by itself: no request of its own in flight and
 * none started for a short quiet spell (100 ms), then the page's main thread idle, and still nothing new.
 * Playwright's `networkidle` waits 500 ms with no connection open, after every load, however quiet the page
 * already is; this follows the page's requests (`request`, `requestfinished`, `requestfailed`) and waits only
 * as long as it must. A late island fetch is a request like any other, so the wait lasts until it has been
 * answered and handled (where an island would log an error about it). Used by the browser tests and the
 * page-weight bench (decision 0076).
 */
import type { Page, Request } from "playwright-core";

interface Requests {
  inFlight: Set<Request>;
  /** When a request last started or ended (Date.now()). */
  changedAt: number;
}

const followed = new WeakMap<Page, Requests>();

/**
 * Starts following the page's requests (once per page; later calls do nothing). Call it before `goto` or
 * the action that loads, so that `settled` knows every request since.
 */
export function followRequests(page: Page): void {
  if (followed.has(page)) return;
  const requests: Requests = { inFlight: new Set(), changedAt: Date.now() };
  const started = (request: Request) => {
    requests.inFlight.add(request);
    requests.changedAt = Date.now();
  };
  // A redirect ends its request (`requestfinished`) and starts the next one (`request`).
  const ended = (request: Request) => {
    requests.inFlight.delete(request);
    requests.changedAt = Date.now();
  };
  page.on("request", started);
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  followed.set(page, requests);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the page's main thread is idle (every task queued before it, React's renders included, ran). */
const mainThreadIdle = () => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 1_000 }));

interface SettleOptions {
  /** How long no request may start or end (default 100 ms). */
  quietMs?: number;
  /** Fails after this long with the requests still in flight (default 15 s). */
  timeoutMs?: number;
}

/** Waits until the page is settled (see above); follows its requests from now on if nothing did yet. */
export async function settled(page: Page, { quietMs = 100, timeoutMs = 15_000 }: SettleOptions = {}): Promise<void> {
  followRequests(page);
  const requests = followed.get(page) as Requests;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const quietFor = Date.now() - requests.changedAt;
    if (requests.inFlight.size === 0 && quietFor >= quietMs) {
      const before = requests.changedAt;
      try {
        // Also a round trip: the browser's events sent before its answer (a request, a console message) are in.
        await page.evaluate(mainThreadIdle);
      } catch (error) {
        // A page that forwards itself (/get-started) replaces its document meanwhile: wait for the next one.
        if (page.isClosed()) throw error;
        requests.changedAt = Date.now();
        continue;
      }
      if (requests.changedAt === before && requests.inFlight.size === 0) return;
      continue;
    }
    if (Date.now() > deadline) {
      const urls = [...requests.inFlight].map((request) => request.url());
      throw new Error(
        `${page.url()} still loading after ${timeoutMs} ms: ${urls.join(", ") || "(requests just ended)"}`,
      );
    }
    await sleep(requests.inFlight.size === 0 ? quietMs - quietFor : 20);
  }
}

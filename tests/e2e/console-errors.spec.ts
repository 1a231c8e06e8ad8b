/**
 * Decision 0032: no route logs a console error or warning (or throws) for any visitor
 * (anonymous, the demo buyer, admin and partner, each in their own browser context, on a phone-sized
 * screen), and every island the server rendered hydrates. A hydration mismatch is reported by React as a
 * recoverable error (an uncaught error in production), so it fails here too.
 *
 * Each visitor's routes run in order in one worker and share that visitor's context (its cookies, and its
 * cache of the site's immutable scripts, as one visitor browsing would), each route on a page of its own.
 * A page is watched until it has settled (scripts/lib/settled.ts): loaded, its islands hydrated, no request
 * of its own in flight for a quiet spell and its main thread idle, so an island's late fetch, and an error it
 * logs about the answer, still count (decision 0076). A route's own visitor (the one its weight is budgeted
 * for) is checked in page-weight.spec.ts instead, on the one load that weighs it, in a fresh context.
 */
import type { BrowserContext } from "@playwright/test";
import { ROUTES, VISITOR_VIEWPORT, type Visitor } from "../../scripts/page-weights.ts";
import { watchConsole } from "./console-problems";
import { asNewClient, expect, followRequests, hydrated, settled, test, url } from "./fixtures";

const visitors: Visitor[] = ["anonymous", "buyer", "admin", "partner"];

for (const visitor of visitors) {
  test.describe(`as ${visitor}`, () => {
    // In order, in one worker (the audits project otherwise spreads its tests): one context per visitor.
    test.describe.configure({ mode: "default" });
    let context: BrowserContext;
    test.beforeAll(async ({ newContext }) => {
      context = await newContext({ as: visitor === "anonymous" ? undefined : visitor, viewport: VISITOR_VIEWPORT });
    });
    test.afterAll(() => context?.close());

    // A route's own visitor (the one it is weighed for) is checked on the load page-weight.spec.ts weighs,
    // in a fresh context: one visit for both audits (decision 0076). The other visitors are checked here.
    for (const path of ROUTES.filter((route) => route.visitor !== visitor).map((route) => route.path)) {
      test(`${path} logs no console error or warning and hydrates its islands`, async () => {
        const page = await context.newPage();
        // Its own client address, as a context of its own had (per-address limits count one route's requests).
        await asNewClient(page);
        const problems = watchConsole(page, url(path));
        followRequests(page);
        await page.goto(path);
        await hydrated(page);
        // Islands finish their first requests and effects after they hydrate.
        await settled(page);
        // The page it settled on (/get-started forwards to /survey) has hydrated too.
        await hydrated(page);
        expect(problems).toEqual([]);
        await page.close();
      });
    }
  });
}

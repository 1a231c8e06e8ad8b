/**
 * Browser tests (tests/e2e/*.spec.ts) on Playwright's runner against Debian's Chromium (scripts/chromium.ts):
 * global-setup.ts builds the app and serves it from a freshly seeded local D1. Two workers share the one
 * server (docs/decisions/0076): the "journeys" project (every spec that arranges and asserts its own data)
 * runs one test at a time, as it always has; the "audits" project (specs that only look at pages: axe,
 * console errors, page weight, HTML without JavaScript, served headers) runs its tests in any order, in
 * whichever worker is free, so its waits overlap the journeys'. A failed test keeps its trace in
 * test-results/ (`npx playwright show-trace <file>`); `npx playwright show-report` opens the HTML report.
 */
import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "./scripts/chromium.ts";

/**
 * Specs that arrange nothing another spec asserts on: they may run beside the journeys. The view URLs' spec
 * only opens pages and asks for redirects; the crons' spec serves its own app from its own state (a second
 * server), so it shares nothing with them either.
 */
const AUDITS = [
  "**/accessibility.spec.ts",
  "**/console-errors.spec.ts",
  "**/page-weight.spec.ts",
  "**/island-html.spec.ts",
  "**/server-pages.spec.ts",
  "**/marketing.spec.ts",
  "**/view-urls.spec.ts",
  "**/local-server.spec.ts",
  "**/api-reference.spec.ts",
];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./tests/e2e/global-setup.ts",
  outputDir: "test-results",
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // A page and its server share 2 busy cores: tests that need longer say so with test.setTimeout.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // Journeys first: one worker takes them in order while the other, kept off them, takes audits.
  projects: [
    { name: "journeys", testIgnore: AUDITS, workers: 1, fullyParallel: false },
    { name: "audits", testMatch: AUDITS, fullyParallel: true },
  ],
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    browserName: "chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    // A failed test keeps its trace (actions, DOM snapshots, network, console) but not the screencast: recording
    // every test's screencast, to keep only the failures', doubled the CPU of a journey (docs/decisions/0056).
    trace: { mode: "retain-on-failure", screenshots: false },
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
});

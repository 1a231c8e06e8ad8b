/**
 * Browser tests (tests/e2e/*.spec.ts) on Playwright's runner against Debian's Chromium (scripts/chromium.ts):
 * global-setup.ts builds the app and serves it from a freshly seeded local D1; one worker runs the files one
 * after another (one browser and one server on a 2-core machine). A failed test keeps its trace in
 * test-results/ (`npx playwright show-trace <file>`); `npx playwright show-report` opens the HTML report.
 */
import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "./scripts/chromium.ts";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./tests/e2e/global-setup.ts",
  outputDir: "test-results",
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // A page and its server share 2 busy cores: tests that need longer say so with test.setTimeout.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    browserName: "chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    trace: "retain-on-failure",
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
  },
});

import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";
import { DEVELOPMENT_WEBHOOK_SECRETS_KEY } from "./src/features/webhooks/dev-key.ts";

const migrations = await readD1Migrations("./migrations");

export default defineConfig({
  test: {
    // One test file per core, not one less (vitest's default): a Worker test spends much of its time
    // waiting on workerd, so two files at once on the 2-core machine took 309 s instead of 476 s.
    maxWorkers: "100%",
    projects: [
      // A feature's tests sit in its test/ folder (decision 0077): `*.worker.test.ts` run in workerd, the rest in node.
      {
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", "{src,worker}/features/*/test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "**/*.worker.test.ts"],
          environment: "node",
        },
      },
      {
        plugins: [
          cloudflareTest({
            main: "./worker/app.ts",
            wrangler: { configPath: "./wrangler.toml" },
            // wrangler.toml describes production; the tests opt in to simulated payments as `npm start` does.
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: migrations,
                APP_ENV: "development",
                ALLOW_SIMULATED_PAYMENTS: "true",
                WEBHOOK_SECRETS_KEY: DEVELOPMENT_WEBHOOK_SECRETS_KEY,
                // Private lists are paced for production (docs/decisions/0066); the tests' lists are small.
                PRIVATE_LIST_WRITE_GAP_MS: "0",
                // `npm run bench -- registry-lookups` sizes the registry's speed test (docs/decisions/0084).
                REGISTRY_BENCH_LEADS: process.env.REGISTRY_BENCH_LEADS ?? "",
              },
            },
          }),
        ],
        test: {
          name: "worker",
          // Each test file loads the Worker's module graph in a fresh isolate: pre-bundled, hono, drizzle and zod
          // are a few files instead of hundreds, a fifth less CPU per file (docs/decisions/0056, amendment).
          deps: {
            optimizer: {
              ssr: {
                enabled: true,
                include: [
                  "hono",
                  "hono/factory",
                  "hono/body-limit",
                  "hono/utils/http-status",
                  "hono/utils/cookie",
                  "hono/secure-headers",
                  "hono/http-exception",
                  "hono/html",
                  "hono/cookie",
                  "hono/client",
                  "hono/hono-base",
                  "drizzle-orm",
                  "drizzle-orm/sqlite-core",
                  "drizzle-orm/batch",
                  "drizzle-orm/d1",
                  "zod",
                  "@hono/zod-openapi",
                  "@hono/zod-validator",
                  "@oslojs/encoding",
                  "papaparse",
                  "lucia",
                  "@lucia-auth/adapter-sqlite",
                  "date-holidays",
                  "zipcode-to-timezone",
                ],
              },
            },
          },
          include: ["tests/worker/**/*.test.ts", "{src,worker}/features/*/test/**/*.worker.test.ts"],
          // Files take turns in one workerd runtime per vitest worker instead of starting one each (3-4 s of CPU and
          // module loading a file); tests/worker/setup.ts gives each file a freshly migrated, empty database and
          // bucket, as its own runtime did (docs/decisions/0056, second amendment).
          isolate: false,
          setupFiles: ["./tests/worker/setup.ts"],
          // vitest's default of 5 s is a limit on a test's speed, which a 2-core machine shared with other
          // runs does not keep: a loaded machine timed out tests that pass (docs/decisions/0056).
          testTimeout: 30_000,
        },
      },
    ],
  },
});

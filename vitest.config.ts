import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations("./migrations");

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" },
      },
      {
        plugins: [
          cloudflareTest({
            main: "./worker/app.ts",
            wrangler: { configPath: "./wrangler.toml" },
            // wrangler.toml describes production; the tests opt in to simulated payments as `npm start` does.
            miniflare: {
              bindings: { TEST_MIGRATIONS: migrations, APP_ENV: "development", ALLOW_SIMULATED_PAYMENTS: "true" },
            },
          }),
        ],
        test: { name: "worker", include: ["tests/worker/**/*.test.ts"], setupFiles: ["./tests/worker/setup.ts"] },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["./tests/e2e/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One browser, one server: files run one after another on this 2-core machine.
          fileParallelism: false,
        },
      },
    ],
  },
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { localBindings } from "../../scripts/lib/serve.ts";
import { DEVELOPMENT_WEBHOOK_SECRETS_KEY } from "../../src/features/webhooks/dev-key.ts";

const wranglerToml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");

describe("the committed configuration describes production", () => {
  it("sets APP_ENV = production and never opts in to simulated payments", () => {
    expect(wranglerToml).toMatch(/^APP_ENV = "production"$/m);
    expect(wranglerToml).not.toMatch(/^\s*ALLOW_SIMULATED_PAYMENTS\s*=/m);
  });

  it("local serving (npm start, e2e, bench) binds the opt-in over the configured production values", () => {
    const configured = { APP_ENV: "production", PUBLIC_SITE_URL: "", EXTRA: "configured" };
    expect(localBindings(configured, { EXTRA: "1" })).toEqual({
      APP_ENV: "development",
      ALLOW_SIMULATED_PAYMENTS: "true",
      WEBHOOK_SECRETS_KEY: DEVELOPMENT_WEBHOOK_SECRETS_KEY,
      PUBLIC_SITE_URL: "",
      EXTRA: "1",
    });
  });

  it("never commits a key for webhook secrets: a deployment puts its own (the local one is refused there)", () => {
    expect(wranglerToml).not.toMatch(/WEBHOOK_SECRETS_KEY\s*=/);
    expect(wranglerToml).not.toContain(DEVELOPMENT_WEBHOOK_SECRETS_KEY.slice(4));
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { wranglerVarArgs } from "../../scripts/lib/env.ts";

const wranglerToml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");

describe("the committed configuration describes production (issue 11 item 1)", () => {
  it("sets APP_ENV = production and never opts in to simulated payments", () => {
    expect(wranglerToml).toMatch(/^APP_ENV = "production"$/m);
    expect(wranglerToml).not.toMatch(/^\s*ALLOW_SIMULATED_PAYMENTS\s*=/m);
  });

  it("local serving (npm start, e2e, bench) passes the opt-in on wrangler dev's command line", () => {
    expect(wranglerVarArgs({ EXTRA: "1" })).toEqual([
      "--var",
      "APP_ENV:development",
      "--var",
      "ALLOW_SIMULATED_PAYMENTS:true",
      "--var",
      "EXTRA:1",
    ]);
  });
});

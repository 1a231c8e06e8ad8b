/**
 * The local server (scripts/lib/serve.ts, decisions 0025 and 0034): simulated payments only on a loopback
 * bind, the crons on their schedule, and a loud failure when a wrangler
 * upgrade changes the two calls outside wrangler's and Miniflare's documented APIs.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { scheduleCrons } from "../../scripts/lib/crons.ts";
import { isLoopbackHost, simulatedPaymentsHostProblem } from "../../scripts/lib/loopback.ts";
import { localBindings } from "../../scripts/lib/serve.ts";
import { loadWrangler } from "../../scripts/lib/wrangler-miniflare.ts";

const root = resolve(import.meta.dirname, "../..");

function runScript(args: string[]) {
  return spawnSync(process.execPath, args, { cwd: root, encoding: "utf8", timeout: 60_000 });
}

describe("simulated payments are served on a loopback bind only", () => {
  it("knows the loopback names and addresses", () => {
    for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.8.9.10", "::1", "[::1]", "shop.localhost"]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of [
      "0.0.0.0",
      "::",
      "[::]",
      "192.168.1.20",
      "10.0.0.5",
      "example.com",
      "128.0.0.1",
      "localhost.example.com",
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it("refuses any other address while simulated payments are on, and allows it once they are off", () => {
    expect(simulatedPaymentsHostProblem("127.0.0.1", localBindings())).toBeNull();
    const problem = simulatedPaymentsHostProblem("0.0.0.0", localBindings());
    expect(problem).toMatch(/^Refusing to serve on --host 0\.0\.0\.0: simulated payments are on/);
    expect(problem).toContain("ALLOW_SIMULATED_PAYMENTS");
    expect(
      simulatedPaymentsHostProblem("0.0.0.0", localBindings({}, { ALLOW_SIMULATED_PAYMENTS: "false" })),
    ).toBeNull();
  });

  it("scripts/serve.ts exits with the message instead of listening on 0.0.0.0", () => {
    const result = runScript(["--experimental-strip-types", "scripts/serve.ts", "--host", "0.0.0.0", "--port", "1"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Refusing to serve on --host 0.0.0.0: simulated payments are on");
    expect(result.stdout).not.toContain("Ready on");
  });

  it("npm start -- --host 192.168.1.20 exits with the message before it builds", () => {
    const result = runScript(["--import", "tsx", "scripts/start.ts", "--host", "192.168.1.20"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Refusing to serve on --host 192.168.1.20");
    expect(result.stdout).not.toContain("astro");
  });
});

describe("the crons fire on their schedule", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fires each configured cron when it is due, in UTC, until stopped", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-24T10:03:30Z") });
    const fired: [string, string][] = [];
    const lines: string[] = [];
    const stop = scheduleCrons(
      ["*/5 * * * *"],
      async (cron, at) => {
        fired.push([cron, at.toISOString()]);
        return { outcome: "ok" };
      },
      (line) => lines.push(line),
    );
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fired).toEqual([["*/5 * * * *", "2026-11-24T10:05:00.000Z"]]);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(fired.map(([, at]) => at)).toEqual(["2026-11-24T10:05:00.000Z", "2026-11-24T10:10:00.000Z"]);
    expect(lines[0]).toBe("[cron */5 * * * *] 2026-11-24T10:05:00.000Z ok");
    stop();
    await vi.advanceTimersByTimeAsync(15 * 60_000);
    expect(fired).toHaveLength(2);
  });

  it("logs a failed run and keeps the schedule", async () => {
    vi.useFakeTimers({ now: new Date("2026-11-24T10:04:59Z") });
    const lines: string[] = [];
    let calls = 0;
    const stop = scheduleCrons(
      ["*/5 * * * *"],
      async () => {
        calls += 1;
        throw new Error("D1 is locked");
      },
      (line) => lines.push(line),
    );
    await vi.advanceTimersByTimeAsync(5 * 60_000 + 2_000);
    stop();
    expect(calls).toBe(2);
    expect(lines).toContain("[cron */5 * * * *] 2026-11-24T10:05:00.000Z failed: D1 is locked");
  });
});

describe("wrangler's Miniflare options, the one undocumented dependency (decision 0034)", () => {
  const { wrangler, miniflare, wranglerVersion } = loadWrangler();
  const wranglerToml = readFileSync(resolve(root, "wrangler.toml"), "utf8");

  it("is the wrangler version decision 0034 was checked against: re-check its list before changing this", () => {
    expect(wranglerVersion).toBe("4.164.0");
  });

  it("turns the wrangler configuration into every binding, trigger and asset rule the shop needs", () => {
    const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(resolve(root, "wrangler.toml"));
    expect(workerOptions.d1Databases).toEqual({ DB: { id: "00000000-0000-4000-8000-000000000000" } });
    expect(workerOptions).toMatchObject({
      compatibilityDate: "2026-08-22",
      compatibilityFlags: ["nodejs_compat"],
      r2Buckets: { DOCUMENTS: expect.anything() },
      queueProducers: {
        IMPORT_QUEUE: expect.objectContaining({ queueName: "leads-shop-imports" }),
        WEBHOOK_QUEUE: expect.objectContaining({ queueName: "leads-shop-webhooks" }),
      },
      queueConsumers: {
        "leads-shop-imports": expect.objectContaining({ maxBatchSize: 10, maxRetries: 5 }),
        "leads-shop-webhooks": expect.objectContaining({ maxBatchSize: 100 }),
      },
      ratelimits: { RATE_LIMITER: expect.anything(), PARTNER_API_RATE_LIMITER: expect.anything() },
      bindings: { APP_ENV: "production", PUBLIC_SITE_URL: "" },
      assets: expect.objectContaining({ binding: "ASSETS" }),
    });
    const crons = /^crons = (\[.*\])$/m.exec(wranglerToml)?.[1];
    expect(workerOptions.cronTriggers).toEqual(JSON.parse(crons ?? "null"));
    expect(JSON.stringify(workerOptions.assets)).toContain('"invoke_user_worker_ahead_of_assets":true');
  });

  it("Miniflare 5 converts those options as serve.ts passes them", () => {
    const { workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(resolve(root, "wrangler.toml"));
    const converted = miniflare.convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      workers: [
        { ...workerOptions, modulesRules: undefined, name: "shop", modules: true, script: "export default {}" },
      ],
    });
    expect(converted).toBeTypeOf("object");
    expect(typeof miniflare.Miniflare).toBe("function");
  });
});

/**
 * `npm run simulate:crm`: the receiver on a free port takes a signed event and refuses a
 * badly signed one; it can be told to fail or to answer slowly; and the npm script starts it from flags.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type CrmReceiverOptions, listenCrmReceiver } from "../../scripts/lib/crm-receiver.ts";
import { newWebhookEventId } from "../../src/features/webhook-outbox/events.ts";
import { buildWebhookEvent } from "../../src/features/webhooks/schemas/webhooks.ts";
import { generateWebhookSecret, unixSeconds, webhookSignatureHeader } from "../../src/features/webhooks/signature.ts";
import { scriptOutput } from "./script-output";

const root = resolve(import.meta.dirname, "../..");
const SECRET = generateWebhookSecret();
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const testEvent = () =>
  JSON.stringify(buildWebhookEvent("test", { message: "hello" }, { id: newWebhookEventId(), createdAt: Date.now() }));

async function post(url: string, body: string, secrets: string[] = [SECRET], t = unixSeconds()) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "webhook-signature": await webhookSignatureHeader(secrets, body, t),
    },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function start(options: Partial<CrmReceiverOptions> = {}) {
  const lines: string[] = [];
  const receiver = await listenCrmReceiver({ secrets: [SECRET], port: 0, log: (line) => lines.push(line), ...options });
  closers.push(receiver.close);
  return { ...receiver, lines };
}

describe("the simulated CRM receiver", () => {
  it("answers 200 to a signed event and prints its type, id and subject", async () => {
    const receiver = await start();
    const body = testEvent();
    const { id } = JSON.parse(body) as { id: string };
    expect(await post(receiver.url, body)).toEqual({ status: 200, json: { received: true } });
    expect(receiver.lines.at(-1)).toMatch(new RegExp(`✓ 200 test ${id} test:${id}$`));
    // The same event again (a retry) is taken, and noted as a duplicate.
    expect((await post(receiver.url, body)).status).toBe(200);
    expect(receiver.lines.at(-1)).toContain("(duplicate: already received)");
    expect(receiver.stats).toMatchObject({ delivered: 2, duplicates: 1, rejected: 0 });
    expect(receiver.stats.eventIds).toEqual(new Set([id]));
  });

  it("refuses a badly signed event with 400: wrong secret, altered body, old timestamp, no header", async () => {
    const receiver = await start();
    const body = testEvent();
    expect(await post(receiver.url, body, [generateWebhookSecret()])).toMatchObject({ status: 400 });
    expect(receiver.lines.at(-1)).toMatch(/✗ 400 bad signature \(mismatch\)/);
    const header = await webhookSignatureHeader([SECRET], body, unixSeconds());
    const altered = await fetch(receiver.url, {
      method: "POST",
      headers: { "webhook-signature": header },
      body: body.replace("hello", "hallo"),
    });
    expect(altered.status).toBe(400);
    expect((await post(receiver.url, body, [SECRET], unixSeconds() - 301)).status).toBe(400);
    expect(receiver.lines.at(-1)).toMatch(/outside_tolerance/);
    expect((await fetch(receiver.url, { method: "POST", body })).status).toBe(400);
    expect(receiver.lines.at(-1)).toMatch(/malformed/);
    expect(receiver.stats).toMatchObject({ delivered: 0, rejected: 4 });
  });

  it("takes either secret during a rotation, and refuses signed bodies that are not documented events", async () => {
    const old = generateWebhookSecret();
    const receiver = await start({ secrets: [SECRET, old] });
    expect((await post(receiver.url, testEvent(), [old])).status).toBe(200);
    expect((await post(receiver.url, testEvent(), [SECRET, old])).status).toBe(200);
    expect((await post(receiver.url, "not json")).status).toBe(400);
    const undocumented = await post(receiver.url, JSON.stringify({ id: "evt_x", type: "lead.sold" }));
    expect(undocumented.status).toBe(422);
    expect(String(undocumented.json.error)).toMatch(/not a documented event/);
    expect((await fetch(receiver.url)).status).toBe(405);
  });

  it("fails at the given rate with 500", async () => {
    const draws = [0.1, 0.5, 0.2, 0.9];
    const receiver = await start({ failRate: 0.3, random: () => draws.shift() ?? 0.99 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(receiver.url, testEvent())).status);
    expect(statuses).toEqual([500, 200, 500, 200]);
    expect(receiver.lines.filter((line) => line.includes("(simulated failure)"))).toHaveLength(2);
    expect(receiver.stats).toMatchObject({ delivered: 2, failed: 2 });
  });

  it("answers slowly when told to", async () => {
    const receiver = await start({ slowMs: 400 });
    const started = performance.now();
    expect((await post(receiver.url, testEvent())).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });
});

describe("npm run simulate:crm", () => {
  function run(args: string[]): ChildProcess {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/simulate-crm.ts", ...args], { cwd: root });
    closers.push(() => {
      child.kill("SIGTERM");
    });
    return child;
  }
  const output = scriptOutput;

  it("starts on a random port from its flags, verifies with --secret, and prints each event", async () => {
    const child = run(["--port", "0", "--secret", SECRET]);
    const banner = await output(child, /listening on (http:\S+)/);
    const url = /listening on (http:\S+)/.exec(banner)?.[1] ?? "";
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const printed = output(child, /✓ 200 test evt_\w+/);
    expect((await post(url, testEvent(), [generateWebhookSecret()])).status).toBe(400);
    expect((await post(url, testEvent())).status).toBe(200);
    expect(await printed).toMatch(/✗ 400 bad signature[\s\S]*✓ 200 test evt_/);
  }, 40_000);

  it("exits 2 with the usage when --secret is missing or not a signing secret, or a flag is out of range", () => {
    for (const args of [
      ["--port", "0"],
      ["--secret", "hunter2"],
      ["--secret", SECRET, "--fail-rate", "2"],
    ]) {
      const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/simulate-crm.ts", ...args], {
        cwd: root,
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.status, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toContain("Usage: npm run simulate:crm");
      expect(result.stdout).not.toContain("listening");
    }
  }, 60_000);
});

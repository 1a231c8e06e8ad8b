/**
 * Test files share a workerd runtime (`isolate: false`), so tests/worker/setup.ts starts each file from a
 * freshly migrated, empty database and bucket: what the file before this one wrote is gone, and the schema
 * is whole (docs/decisions/0056), and a Queue message a file before it sent is acknowledged unprocessed. This
 * file also leaves a user and an object behind for the file after it.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/app";
import { firstRescrubMessage } from "../../worker/features/do-not-call/registry-rescrub";
import { createUser } from "./helpers";

/** The National Registry's list rows: a re-scrub slice makes one when it runs. */
const registryLists = async () =>
  (
    await env.DB.prepare("SELECT count(*) AS n FROM suppression_lists WHERE kind = 'national_dnc'").first<{
      n: number;
    }>()
  )?.n;

describe("a test file's start", () => {
  it("finds no rows and no objects that a file before it wrote", async () => {
    for (const table of ["users", "sessions", "orders", "aged_leads"]) {
      const row = await env.DB.prepare(`SELECT count(*) AS n FROM "${table}"`).first<{ n: number }>();
      expect({ table, rows: row?.n }).toEqual({ table, rows: 0 });
    }
    expect((await env.DOCUMENTS.list()).objects).toEqual([]);
  });

  it("finds every migration applied, once each", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>();
    expect(results.map((r) => r.name)).toEqual(env.TEST_MIGRATIONS.map((m) => m.name));
  });

  it("acknowledges unprocessed a Queue message sent before the file started, and processes one sent since", async () => {
    const slice = firstRescrubMessage("national", 212);
    const batch = createMessageBatch("leads-shop-imports", [
      { id: "earlier", timestamp: new Date(Date.now() - 60_000), attempts: 1, body: slice },
    ]);
    await worker.queue(batch, env);
    expect(await getQueueResult(batch, createExecutionContext())).toMatchObject({ explicitAcks: ["earlier"] });
    expect(await registryLists()).toBe(0);

    const current = createMessageBatch("leads-shop-imports", [
      { id: "current", timestamp: new Date(), attempts: 1, body: slice },
    ]);
    await worker.queue(current, env);
    expect(await getQueueResult(current, createExecutionContext())).toMatchObject({ explicitAcks: ["current"] });
    expect(await registryLists()).toBe(1);
  });

  it("leaves a user and a stored object behind", async () => {
    await createUser();
    await env.DOCUMENTS.put("left-behind.txt", "for the next file to not find");
    const row = await env.DB.prepare("SELECT count(*) AS n FROM users").first<{ n: number }>();
    expect(row?.n).toBe(1);
  });
});

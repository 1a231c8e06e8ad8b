import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import worker from "../../worker/app";
// Tests call order services directly: the products sold through orders are registered as the Worker does.
import "../../worker/order-products";
// And the kinds of CSV import besides aged leads (tests call the import pipeline directly too).
import "../../worker/import-kinds";
import { resetRegistryCache } from "../../worker/features/do-not-call/registry-store";
import { queue } from "../../worker/queue";

/**
 * Test files share one workerd runtime per vitest worker (`isolate: false` in vitest.config.ts): each file
 * still starts from a freshly migrated, empty database and bucket, as it did in a runtime of its own
 * (docs/decisions/0056). Everything the migrations made is dropped, their record included, and they run again.
 */
async function startFromNothing(db: D1Database, bucket: R2Bucket): Promise<void> {
  const { results: views } = await db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'view'")
    .all<{ name: string }>();
  const { results: references } = await db
    .prepare(
      `SELECT m.name AS name, f."table" AS parent FROM sqlite_master m LEFT JOIN pragma_foreign_key_list(m.name) f
       WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_cf_%'`,
    )
    .all<{ name: string; parent: string | null }>();
  // A table goes once no table left refers to it (a child's implicit DELETE looks its parent up).
  const left = new Set(references.map((r) => r.name));
  const order: string[] = [];
  while (left.size > 0) {
    const referenced = new Set(references.filter((r) => left.has(r.name) && r.parent !== r.name).map((r) => r.parent));
    const free = [...left].filter((name) => !referenced.has(name));
    for (const name of free.length > 0 ? free : [...left]) {
      order.push(name);
      left.delete(name);
    }
  }
  const drops = [...views.map(({ name }) => `DROP VIEW "${name}"`), ...order.map((name) => `DROP TABLE "${name}"`)];
  if (drops.length > 0) await db.batch(drops.map((sql) => db.prepare(sql)));
  for (let listed = await bucket.list(); listed.objects.length > 0; listed = await bucket.list()) {
    await bucket.delete(listed.objects.map((object) => object.key));
  }
}

/**
 * The Queues outlive a file too: a message a file before this one sent (a registry upload's next slice, a
 * webhook retry) can be delivered after this file's start, and would write into its fresh database at
 * whatever time it is then (a registry list dated today, stale by the clock a test has moved ahead). The
 * consumer acknowledges, unprocessed, what was sent before the file started. A test that stands in for the
 * Queue calls the consumer itself (helpers.ts, `deliverToQueue`). docs/decisions/0056, third amendment.
 */
function dropMessagesSentBefore(startedAt: number): void {
  worker.queue = (batch, queueEnv) => {
    const current = batch.messages.filter((message) => {
      if (message.timestamp.getTime() >= startedAt) return true;
      message.ack();
      return false;
    });
    if (current.length === 0) return Promise.resolve();
    return queue(
      {
        queue: batch.queue,
        metadata: batch.metadata,
        messages: current,
        ackAll: () => {
          for (const message of current) message.ack();
        },
        retryAll: (options) => {
          for (const message of current) message.retry(options);
        },
      },
      queueEnv,
    );
  };
}

// The Queue stamps messages by the real clock: a file before this one may have left a faked one behind.
vi.useRealTimers();
dropMessagesSentBefore(Date.now());
await startFromNothing(env.DB, env.DOCUMENTS);
// The registry's isolate cache outlives a file in the shared runtime: it must forget the emptied bucket.
resetRegistryCache();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

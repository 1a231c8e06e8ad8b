/**
 * Nothing accepted is lost on a crash. A batch answered 2xx is recorded `queued` with
 * its rows stored in R2 before its message is sent; if the message is lost (the process killed between
 * the two, or a local Queue that dies with its server), the batch would stay queued for good. The sweep
 * sends again every batch queued longer than STALLED_BATCH_MS: on the cron, and at the local server's
 * start for every queued batch (nothing can still be on a Queue that just started). The consumer inserts a
 * batch once however often its message arrives, so sending again is always safe.
 * The browser resumes an interrupted upload from `receivedBatchNumbers`: only the batches never received.
 */
import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import { importBatches, imports } from "../../db/schema";
import type { Deps } from "../../deps";
import { NotFoundError } from "../../errors";
import { type ImportBatchMessage, STALLED_BATCH_MS } from "./imports";

/** Messages one `sendBatch` takes (Queues: at most 100 per call). */
const SEND_BATCH = 100;
/** Rounds one sweep runs at most (3 D1 queries each, well inside one invocation's budget); the rest waits for the next. */
const MAX_ROUNDS = 20;

/**
 * Sends again the batches queued longer than `stalledAfterMs` (oldest first), each claimed by moving its
 * queued time to now, so a concurrent sweep does not pick it too. Answers how many were sent again.
 */
export async function resendStalledBatches(deps: Deps, options: { stalledAfterMs?: number } = {}): Promise<number> {
  const { db, env, now } = deps;
  const cutoff = now - (options.stalledAfterMs ?? STALLED_BATCH_MS);
  let sent = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // The oldest stalled batches by the partial index on queued batches (import_batches_queued_idx).
    const stalled = db
      .select({ rowid: sql`rowid` })
      .from(importBatches)
      .where(and(eq(importBatches.status, "queued"), lt(importBatches.queuedAt, cutoff)))
      .orderBy(asc(importBatches.queuedAt))
      .limit(SEND_BATCH);
    const claimed = await db
      .update(importBatches)
      .set({ queuedAt: now })
      .where(and(sql`rowid IN ${stalled}`, eq(importBatches.status, "queued"), lt(importBatches.queuedAt, cutoff)))
      .returning({ importId: importBatches.importId, batchNumber: importBatches.batchNumber });
    if (claimed.length === 0) break;
    // A call-back import's batches say so: the consumer budgets them as such (decision 0069).
    const callbackImports = new Set(
      (
        await db
          .select({ id: imports.id })
          .from(imports)
          .where(
            and(
              inArray(imports.id, [...new Set(claimed.map((batch) => batch.importId))]),
              eq(imports.kind, "callbacks"),
            ),
          )
      ).map((row) => row.id),
    );
    await env.IMPORT_QUEUE.sendBatch(
      claimed.map(({ importId, batchNumber }) => ({
        body: {
          kind: "import-batch",
          importId,
          batchNumber,
          ...(callbackImports.has(importId) ? { callbacks: true as const } : {}),
        } satisfies ImportBatchMessage,
        contentType: "json" as const,
      })),
    );
    sent += claimed.length;
    if (claimed.length < SEND_BATCH) break;
  }
  return sent;
}

/** The batch numbers the server has of an import (whatever their state): a resumed upload skips them. */
export async function receivedBatchNumbers(deps: Deps, importId: string): Promise<number[]> {
  const { db } = deps;
  const [found] = await db.select({ id: imports.id }).from(imports).where(eq(imports.id, importId));
  if (!found) throw new NotFoundError("Import not found");
  const rows = await db
    .select({ batchNumber: importBatches.batchNumber })
    .from(importBatches)
    .where(eq(importBatches.importId, importId))
    .orderBy(asc(importBatches.batchNumber));
  return rows.map((row) => row.batchNumber);
}

/**
 * `PRAGMA optimize` where the shop changes data in bulk (docs/decisions/0043): after an
 * import, after a suppression list upload, and on the cron. SQLite then runs ANALYZE on the tables whose
 * statistics are missing or out of date (D1's documentation advises it after index changes and bulk loads),
 * with a bounded sample, so it costs little when nothing changed. A failure is logged, never raised: the
 * bulk change it follows has already been committed.
 */
import type { Deps } from "../deps";

export async function optimizeDatabase(deps: Pick<Deps, "env">): Promise<void> {
  try {
    await deps.env.DB.prepare("PRAGMA optimize").run();
  } catch (error) {
    console.error("PRAGMA optimize failed", error);
  }
}

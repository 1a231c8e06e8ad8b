/**
 * Fires the Worker's cron triggers on their schedule while the local server runs (`npm start`, e2e,
 * bench): workerd has no scheduler of its own, so without this a local shop would never cancel the
 * payments of stale reservations or send the daily summaries. Schedules are read in UTC,
 * as Cloudflare reads them.
 */
import { Cron } from "croner";

export interface CronOutcome {
  outcome: string;
}

/** Calls `fire` at each time one of `crons` is due; answers a function that stops them all. */
export function scheduleCrons(
  crons: readonly string[],
  fire: (cron: string, scheduledTime: Date) => Promise<CronOutcome>,
  log: (line: string) => void = console.log,
): () => void {
  const jobs = crons.map(
    (cron) =>
      new Cron(cron, { timezone: "UTC", protect: true }, async (job: Cron) => {
        const scheduledTime = job.currentRun() ?? new Date();
        try {
          const { outcome } = await fire(cron, scheduledTime);
          log(`[cron ${cron}] ${scheduledTime.toISOString()} ${outcome}`);
        } catch (error) {
          log(`[cron ${cron}] ${scheduledTime.toISOString()} failed: ${(error as Error).message}`);
        }
      }),
  );
  return () => {
    for (const job of jobs) job.stop();
  };
}

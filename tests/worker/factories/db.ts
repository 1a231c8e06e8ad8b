/**
 * The ground every factory stands on (decision 0067): the drizzle handle type and a counter for unique
 * defaults. It imports nothing of workerd, so the browser tests' process uses the same factories on its own
 * handle (tests/e2e/database.ts); the Worker tests' handle is `testDb` (test-db.ts).
 *
 * Each Worker test file has its own D1 and its own copy of this module, so a counter (not a random number)
 * keeps usernames, e-mails and phones apart and makes failures repeatable. The browser tests share one
 * database between processes and runs: they start the counter at `startSequenceAt` first.
 */
import type { Database } from "../../../worker/db/client";

export type { Database };

let sequence = 0;
/** 1, 2, 3… for this test file: the suffix of every unique default. */
export const nextNumber = (): number => ++sequence;

/** Starts the counter past `start` (a process that shares its database with others picks its own range). */
export function startSequenceAt(start: number): void {
  sequence = start;
}

/**
 * A valid US phone (area code 260) no other factory call of the file made. Other helpers' phones start
 * with 3, 4, 6, 7, 8 or 9 (transfer-fixtures, suppression-fixtures, uniquePhones…), so these never meet them.
 */
export const uniquePhone = (): string => `26${String(nextNumber() % 100_000_000).padStart(8, "0")}`;

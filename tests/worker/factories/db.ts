/**
 * The ground every factory stands on (decision 0067): the test's drizzle handle and a counter for
 * unique defaults. Each Worker test file has its own D1 and its own copy of this module, so a counter
 * (not a random number) keeps usernames, e-mails and phones apart and makes failures repeatable.
 */
import { env } from "cloudflare:workers";
import type { Database } from "../../../worker/db/client";
import { createDeps, type Deps } from "../../../worker/deps";

export type { Database };

/** The drizzle handle a test arranges its data with: take one per test and pass it to every factory. */
export const testDb = (): Database => createDeps(env).db;

/** What a service takes, around the test's handle (a factory that goes through a service uses it). */
export const depsOf = (db: Database, now = Date.now()): Deps => ({ db, env, now });

let sequence = 0;
/** 1, 2, 3… for this test file: the suffix of every unique default. */
export const nextNumber = (): number => ++sequence;

/**
 * A valid US phone (area code 260) no other factory call of the file made. Other helpers' phones start
 * with 3, 4, 6, 7, 8 or 9 (transfer-fixtures, suppression-fixtures, uniquePhones…), so these never meet them.
 */
export const uniquePhone = (): string => `26${String(nextNumber()).padStart(8, "0")}`;

/** The Worker tests' drizzle handle, on the test file's own D1 (decision 0067). */
import { env } from "cloudflare:workers";
import { createDeps } from "../../../worker/deps";
import type { Database } from "./db";

/** The drizzle handle a test arranges its data with: take one per test and pass it to every factory. */
export const testDb = (): Database => createDeps(env).db;

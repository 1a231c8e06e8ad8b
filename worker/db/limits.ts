/**
 * Cloudflare D1's limits (https://developers.cloudflare.com/d1/platform/limits/), which local D1 does
 * not enforce. Code that writes in bulk plans around them; the Worker tests check them (tests/worker/d1-usage.ts).
 */
export const D1_LIMITS = {
  /** Bound parameters in one statement. */
  paramsPerStatement: 100,
  /** Length of one SQL statement. */
  sqlBytesPerStatement: 100_000,
  /** One string or BLOB value (a bulk insert's JSON parameter). */
  bytesPerValue: 2_000_000,
  /** Queries in one Worker invocation (paid plan); each statement of a batch counts. */
  queriesPerInvocation: 1000,
} as const;

/**
 * Playwright's global setup: builds the app (unless E2E_SKIP_BUILD=1) and serves it on a free port from a
 * freshly migrated and seeded local state. The test workers find the server through the environment
 * (tests/e2e/fixtures.ts reads it); the returned function stops the server after the run.
 */

import { OPEN_CALLING_HOURS_VARS } from "../../scripts/lib/env.ts";
import { build } from "../../scripts/lib/run.ts";
import { startLocalServer } from "../../scripts/local-server.ts";

export default async function globalSetup() {
  if (!process.env.E2E_SKIP_BUILD) build();
  // Calls route only in the prospect's calling hours: the browser tests read the rules at a Wednesday
  // afternoon in every US zone, whatever the hour of the run (docs/decisions/0064).
  const server = await startLocalServer("e2e-state", OPEN_CALLING_HOURS_VARS);
  process.env.E2E_BASE_URL = server.baseURL;
  process.env.E2E_PERSIST_TO = server.persistTo;
  process.env.E2E_SERVER_LOG = server.logFile;
  return () => server.stop();
}

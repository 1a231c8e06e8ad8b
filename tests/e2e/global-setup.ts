/**
 * Playwright's global setup: builds the app (unless E2E_SKIP_BUILD=1) and serves it on a free port from a
 * freshly migrated and seeded local state. The state is migrated and seeded while the build runs (neither
 * needs the other), and the server starts once both are done. The test workers find the server through the
 * environment (tests/e2e/fixtures.ts reads it); the returned function stops the server after the run. It
 * prints how long each part took, for the gate's stage times (docs/decisions/0056).
 */

import { OPEN_CALLING_HOURS_VARS } from "../../scripts/lib/env.ts";
import { buildInBackground } from "../../scripts/lib/run.ts";
import { startLocalServer } from "../../scripts/local-server.ts";

const secondsSince = (start: number) => ((performance.now() - start) / 1000).toFixed(1);

export default async function globalSetup() {
  const start = performance.now();
  const built = process.env.E2E_SKIP_BUILD
    ? Promise.resolve()
    : buildInBackground().then(() => console.log(`Global setup: app built after ${secondsSince(start)} s`));
  // A failed build is reported once, by the await below, not also as an unhandled rejection meanwhile.
  built.catch(() => {});
  // Calls route only in the prospect's calling hours: the browser tests read the rules at a Wednesday
  // afternoon in every US zone, whatever the hour of the run (docs/decisions/0064).
  const server = await startLocalServer("e2e-state", OPEN_CALLING_HOURS_VARS, {
    beforeStart: async () => {
      console.log(`Global setup: state migrated and seeded after ${secondsSince(start)} s`);
      await built;
    },
  });
  console.log(`Global setup: server ready after ${secondsSince(start)} s`);
  process.env.E2E_BASE_URL = server.baseURL;
  process.env.E2E_PERSIST_TO = server.persistTo;
  process.env.E2E_SERVER_LOG = server.logFile;
  return () => server.stop();
}

/**
 * Serves the built Worker until stopped: `--port N`, `--host H` (default localhost; loopback only while
 * simulated payments are on), `--persist-to DIR`, `--vars '{"NAME":"value"}'` over the local variables,
 * `--crons '["* * * * * *"]'` instead of the configured cron triggers. scripts/local-server.ts runs it as a
 * child process so that the Worker's console (local mail included) goes to its log file.
 */
import { parseArgs } from "node:util";
import { serveBuiltWorker } from "./lib/serve.ts";

let server: Awaited<ReturnType<typeof serveBuiltWorker>>;
try {
  // An unknown flag, a missing value or a stray argument exits 2 like any other refusal.
  const { values: flags } = parseArgs({
    options: {
      port: { type: "string", default: "8787" },
      host: { type: "string", default: "localhost" },
      "persist-to": { type: "string" },
      vars: { type: "string", default: "{}" },
      crons: { type: "string" },
    },
    strict: true,
  });
  server = await serveBuiltWorker({
    port: Number(flags.port),
    host: flags.host,
    persistTo: flags["persist-to"],
    vars: JSON.parse(flags.vars) as Record<string, string>,
    crons: flags.crons === undefined ? undefined : (JSON.parse(flags.crons) as string[]),
  });
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
console.log(`Ready on ${server.url.href}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void server.dispose().finally(() => process.exit(0));
  });
}

/**
 * Serves the built Worker until stopped: `--port N`, `--host H` (default localhost; loopback only while
 * simulated payments are on), `--persist-to DIR`, `--vars '{"NAME":"value"}'` over the local variables,
 * `--crons '["* * * * * *"]'` instead of the configured cron triggers. scripts/local-server.ts runs it as a
 * child process so that the Worker's console (local mail included) goes to its log file.
 */
import { parseFlags } from "./lib/flags.ts";
import { serveBuiltWorker } from "./lib/serve.ts";

const flags = parseFlags(process.argv.slice(2));
const text = (name: string) => {
  const value = flags.get(name);
  return typeof value === "string" ? value : undefined;
};
const crons = text("crons");

let server: Awaited<ReturnType<typeof serveBuiltWorker>>;
try {
  server = await serveBuiltWorker({
    port: Number(text("port") ?? 8787),
    host: text("host") ?? "localhost",
    persistTo: text("persist-to"),
    vars: JSON.parse(text("vars") ?? "{}") as Record<string, string>,
    crons: crons === undefined ? undefined : (JSON.parse(crons) as string[]),
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

/**
 * Serves the built Worker until stopped: `--port N`, `--host H` (default localhost), `--persist-to DIR`,
 * `--vars '{"NAME":"value"}'` over the local variables. scripts/local-server.ts runs it as a child
 * process so that the Worker's console (local mail included) goes to its log file.
 */
import { parseFlags } from "./lib/flags.ts";
import { serveBuiltWorker } from "./lib/serve.ts";

const flags = parseFlags(process.argv.slice(2));
const text = (name: string) => {
  const value = flags.get(name);
  return typeof value === "string" ? value : undefined;
};

const server = await serveBuiltWorker({
  port: Number(text("port") ?? 8787),
  host: text("host") ?? "localhost",
  persistTo: text("persist-to"),
  vars: JSON.parse(text("vars") ?? "{}") as Record<string, string>,
});
console.log(`Ready on ${server.url.href}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void server.dispose().finally(() => process.exit(0));
  });
}

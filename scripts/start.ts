/**
 * `npm start`: build, migrate the local D1, seed demo data when empty, serve on PORT (default 8787) with the
 * cron triggers firing on their schedule. `-- --host H` binds another address (loopback only while
 * simulated payments are on).
 */
import { parseArgs } from "node:util";
import { applyMigrations } from "./lib/d1.ts";
import { simulatedPaymentsHostProblem } from "./lib/loopback.ts";
import { build } from "./lib/run.ts";
import { localBindings, serveBuiltWorker } from "./lib/serve.ts";
import { printDemoLogins, seedIfEmpty } from "./seed.ts";

const port = process.env.PORT ?? "8787";

/** `--host`, the one flag; an unknown flag, a missing value or a stray argument exits 2 with the usage. */
function readHost(): string {
  try {
    return parseArgs({ options: { host: { type: "string", default: "localhost" } }, strict: true }).values.host;
  } catch (error) {
    console.error(`${(error as Error).message}\nUsage: npm start [-- --host H]`);
    process.exit(2);
  }
}
const host = readHost();

// Refused before the build, with the same message the server would give.
const problem = simulatedPaymentsHostProblem(host, localBindings());
if (problem) {
  console.error(problem);
  process.exit(2);
}

build();
applyMigrations({});
const seeded = await seedIfEmpty();
console.log(
  seeded ? "\n  Seeded demo data into the local database." : "\n  Local database already has data; not seeding.",
);
printDemoLogins();

const server = await serveBuiltWorker({ port: Number(port), host });
console.log(`  Serving the shop at http://${host}:${port} (Ctrl-C stops it)`);
console.log(`  Cron triggers fire on their schedule (UTC): ${server.crons.join(", ") || "none"}\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void server.dispose().finally(() => process.exit(0));
  });
}

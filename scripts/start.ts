/** `npm start`: build, migrate the local D1, seed demo data when empty, serve on PORT (default 8787). */
import { applyMigrations } from "./lib/d1.ts";
import { build } from "./lib/run.ts";
import { serveBuiltWorker } from "./lib/serve.ts";
import { printDemoLogins, seedIfEmpty } from "./seed.ts";

const port = process.env.PORT ?? "8787";

build();
applyMigrations({});
const seeded = await seedIfEmpty({});
console.log(
  seeded ? "\n  Seeded demo data into the local database." : "\n  Local database already has data; not seeding.",
);
printDemoLogins();

const server = await serveBuiltWorker({ port: Number(port), host: "localhost" });
console.log(`  Serving the shop at http://localhost:${port} (Ctrl-C stops it)\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void server.dispose().finally(() => process.exit(0));
  });
}

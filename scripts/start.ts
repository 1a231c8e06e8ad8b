/** `npm start`: build, migrate the local D1, seed demo data when empty, serve on PORT (default 8787). */
import { spawn } from "node:child_process";
import { applyMigrations } from "./lib/d1.ts";
import { toolEnv, wranglerVarArgs } from "./lib/env.ts";
import { bin, root } from "./lib/paths.ts";
import { build } from "./lib/run.ts";
import { printDemoLogins, seedIfEmpty } from "./seed.ts";

const port = process.env.PORT ?? "8787";

build();
applyMigrations({});
const seeded = await seedIfEmpty({});
console.log(
  seeded ? "\n  Seeded demo data into the local database." : "\n  Local database already has data; not seeding.",
);
printDemoLogins();
console.log(`  Serving the shop at http://localhost:${port}\n`);

const server = spawn(
  bin("wrangler"),
  ["dev", "--port", port, "--show-interactive-dev-session=false", ...wranglerVarArgs()],
  {
    cwd: root,
    stdio: "inherit",
    env: toolEnv(),
  },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));

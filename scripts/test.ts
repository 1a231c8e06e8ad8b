/**
 * `npm test`: formatter + linter, type checks, dead code (knip, configured in knip.jsonc), schema.ts against
 * the migrations (drizzle-kit), then every test layer: unit and Worker (vitest, whose
 * tests/worker/schema.test.ts compares the migrated D1 with schema.ts), then the browser tests (Playwright's
 * runner, which builds the app first). Extra arguments go to vitest.
 */
import { bin } from "./lib/paths.ts";
import { run } from "./lib/run.ts";

const steps: [title: string, command: string, args: string[]][] = [
  ["Format and lint (biome)", bin("biome"), ["check", "."]],
  ["Type check (astro check)", bin("astro"), ["check"]],
  ["Type check (tsc --noEmit)", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]],
  ["No dead code (knip: unused files, exports, types and dependencies)", bin("knip"), []],
  [
    "Schema and migrations agree (drizzle-kit check, generate dry run)",
    process.execPath,
    ["--experimental-strip-types", "scripts/db-check.ts"],
  ],
  ["Tests: unit, worker (vitest)", bin("vitest"), ["run", ...process.argv.slice(2)]],
  ["Tests: browser (playwright test)", bin("playwright"), ["test"]],
];

for (const [title, command, args] of steps) {
  console.log(`\n▶ ${title}`);
  run(command, args);
}

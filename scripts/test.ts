/**
 * `npm test`: formatter + linter, type checks, then every test layer: unit and Worker (vitest), then the
 * browser tests (Playwright's runner, which builds the app first). Extra arguments go to vitest.
 */
import { bin } from "./lib/paths.ts";
import { run } from "./lib/run.ts";

const steps: [title: string, command: string, args: string[]][] = [
  ["Format and lint (biome)", bin("biome"), ["check", "."]],
  ["Type check (astro check)", bin("astro"), ["check"]],
  ["Type check (tsc --noEmit)", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]],
  ["Tests: unit, worker (vitest)", bin("vitest"), ["run", ...process.argv.slice(2)]],
  ["Tests: browser (playwright test)", bin("playwright"), ["test"]],
];

for (const [title, command, args] of steps) {
  console.log(`\n▶ ${title}`);
  run(command, args);
}

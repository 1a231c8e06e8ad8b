/** `npm test`: formatter + linter, type checks, then every test layer (unit, Worker, browser). */
import { bin } from "./lib/paths.ts";
import { run } from "./lib/run.ts";

const steps: [title: string, command: string, args: string[]][] = [
  ["Format and lint (biome)", bin("biome"), ["check", "."]],
  ["Type check (astro check)", bin("astro"), ["check"]],
  ["Type check (tsc --noEmit)", bin("tsc"), ["--noEmit", "-p", "tsconfig.json"]],
  ["Tests: unit, worker, e2e (vitest)", bin("vitest"), ["run", ...process.argv.slice(2)]],
];

for (const [title, command, args] of steps) {
  console.log(`\n▶ ${title}`);
  run(command, args);
}

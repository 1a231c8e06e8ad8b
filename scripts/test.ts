/**
 * `npm test`: first the static checks, at the same time (each mostly uses one core): formatter + linter,
 * the type check, dead code (knip, configured in knip.jsonc), the schema against the migrations (drizzle-kit);
 * then every test layer: unit and Worker (vitest, whose tests/worker/schema.test.ts compares the migrated D1
 * with worker/db/schema/), then the browser tests (Playwright's runner, which builds the app first). It ends with
 * each stage's time (docs/decisions/0056). Extra arguments go to vitest.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bin } from "./lib/paths.ts";
import { printTimes, runConcurrently, runStep, type StepResult } from "./lib/run.ts";

const started = performance.now();
// knip runs once: its report (JSON) is also what tests/unit/dead-code.test.ts asserts on in this run.
const scratch = mkdtempSync(join(tmpdir(), "npm-test-"));
const knipReport = join(scratch, "knip.json");

const results: StepResult[] = [];
const finish = (): never => {
  rmSync(scratch, { recursive: true, force: true });
  printTimes(results, (performance.now() - started) / 1000);
  process.exit(results.every((r) => r.ok) ? 0 : 1);
};

console.log("\n▶ Static checks, at the same time (each one's output follows when it ends)");
const staticStart = performance.now();
results.push(
  ...(await runConcurrently([
    { title: "Format and lint (biome)", command: bin("biome"), args: ["check", "."] },
    // astro check type-checks every file tsconfig.json includes (.ts and .tsx as well as .astro), as
    // `tsc --noEmit -p tsconfig.json` would: a second type check of them cost CPU for nothing (docs/decisions/0056).
    { title: "Type check (astro check)", command: bin("astro"), args: ["check"] },
    {
      title: "No dead code (knip)",
      command: bin("knip"),
      args: ["--no-progress", "--reporter", "symbols", "--reporter", "json", "--output-file", `json=${knipReport}`],
    },
    {
      title: "Schema and migrations agree (db-check)",
      command: process.execPath,
      args: ["--experimental-strip-types", "scripts/db-check.ts"],
    },
  ])),
);
results.push({
  title: "Static checks together (wall clock)",
  ok: results.every((r) => r.ok),
  seconds: (performance.now() - staticStart) / 1000,
});
if (!results.every((r) => r.ok)) finish();

for (const step of [
  {
    title: "Tests: unit, worker (vitest)",
    command: bin("vitest"),
    args: ["run", ...process.argv.slice(2)],
    env: { KNIP_REPORT: knipReport },
  },
  { title: "Tests: browser (playwright test)", command: bin("playwright"), args: ["test"] },
]) {
  results.push(runStep(step));
  if (!results.at(-1)?.ok) break;
}
finish();

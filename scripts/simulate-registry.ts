/**
 * `npm run simulate:registry -- --numbers 258500000 --out DIR [--seed 1] [--changes 0.01]`: writes a
 * synthetic National Do Not Call Registry (scripts/lib/registry-simulation.ts; docs/decisions/0065): per US
 * area code a full list `DIR/full/AAA.txt` and a change list `DIR/changes/AAA.txt` (`--changes` is the
 * share of the area code's numbers the change list touches, half deleted, half added), and
 * `DIR/manifest.json`. The same flags write the same bytes.
 */
import { parseArgs } from "node:util";
import { MAX_NUMBERS, usAreaCodes, writeRegistry } from "./lib/registry-simulation.ts";

const USAGE = "Usage: npm run simulate:registry -- --numbers N --out DIR [--seed 1] [--changes 0.01]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

/** The flags as given; an unknown flag, a missing value or a stray argument exits 2 with the usage. */
function readFlags() {
  try {
    return parseArgs({
      options: {
        numbers: { type: "string" },
        out: { type: "string" },
        seed: { type: "string", default: "1" },
        changes: { type: "string", default: "0.01" },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

const flags = readFlags();
const max = MAX_NUMBERS(usAreaCodes().length);
const numbers = Number(flags.numbers);
if (flags.numbers === undefined || !Number.isInteger(numbers) || numbers < 1 || numbers > max) {
  fail(`--numbers must be a whole number from 1 to ${max.toLocaleString("en-US")}.`);
}
if (!flags.out) fail("--out is required: the folder to write the registry to.");
const seed = Number(flags.seed);
if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 31) fail("--seed must be a whole number from 0 to 2^31.");
const changeShare = Number(flags.changes);
if (!Number.isFinite(changeShare) || changeShare < 0 || changeShare > 1) fail("--changes must be from 0 to 1.");

const started = performance.now();
let reported = started;
const registry = writeRegistry({ numbers, out: flags.out, seed, changeShare }, (done, of) => {
  const now = performance.now();
  if (now - reported > 5_000 || done === of) {
    reported = now;
    console.log(`${done}/${of} area codes, ${((now - started) / 1000).toFixed(1)} s`);
  }
});
const seconds = (performance.now() - started) / 1000;
const changed = registry.areaCodes.reduce((sum, files) => sum + files.added + files.deleted, 0);
console.log(
  `Wrote ${numbers.toLocaleString("en-US")} numbers over ${registry.areaCodes.length} area codes ` +
    `(${changed.toLocaleString("en-US")} changes, ${(registry.bytes / 1e6).toFixed(1)} MB) to ${flags.out} ` +
    `in ${seconds.toFixed(1)} s (${Math.round(numbers / seconds).toLocaleString("en-US")} numbers a second).`,
);

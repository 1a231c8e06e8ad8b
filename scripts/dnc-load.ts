/**
 * `npm run dnc:load -- DIR [--remote] [--scope national|TX…] [--download-date YYYY-MM-DD] [--san SAN]`: loads
 * a registry folder (as `npm run simulate:registry` writes it, or the FTC's files laid out the same way:
 * full/AAA.txt, changes/AAA.txt) through the same HTTP API as the Do Not Call tab
 * (docs/decisions/0083-loading-the-whole-registry.md). Stopped and run again, it resumes where it stopped.
 *
 * Where it sends: the local server (`npm start`, http://localhost:$PORT, 8787 by default), or with
 * `--remote` the deployed shop at DNC_LOAD_URL (`--url` overrides either).
 * Credentials: an admin's DNC_LOAD_USERNAME and DNC_LOAD_PASSWORD from the environment; locally they
 * default to the seeded demo admin. The SAN: `--san` or DNC_LOAD_SAN (national uploads need one).
 * The download date defaults to today (UTC). Exit 0 when every file was applied, 1 when some file was
 * refused (each is printed with its message), 2 on bad flags.
 */
import { parseArgs } from "node:util";
import { REGISTRY_SCOPES } from "../src/features/do-not-call/registry-upload.ts";
import { DEMO_ADMIN } from "./demo-data.ts";
import { LoadError, loadRegistry, numbersAfter } from "./lib/dnc-load.ts";

const USAGE =
  "Usage: npm run dnc:load -- DIR [--remote] [--url URL] [--scope national] [--download-date YYYY-MM-DD] [--san SAN]";

function fail(message: string, code = 2): never {
  console.error(code === 2 ? `${message}\n${USAGE}` : message);
  process.exit(code);
}

function readArgs() {
  try {
    return parseArgs({
      options: {
        remote: { type: "boolean", default: false },
        url: { type: "string" },
        scope: { type: "string", default: "national" },
        "download-date": { type: "string" },
        san: { type: "string" },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

const { values, positionals } = readArgs();
const [dir, ...extra] = positionals;
if (!dir || extra.length > 0) fail("Give one folder: the registry's files.");
const scope = values.scope as (typeof REGISTRY_SCOPES)[number];
if (!REGISTRY_SCOPES.includes(scope)) fail(`--scope is one of ${REGISTRY_SCOPES.join(", ")}.`);
const baseURL =
  values.url || (values.remote ? process.env.DNC_LOAD_URL : `http://localhost:${process.env.PORT || "8787"}`);
if (!baseURL) fail("--remote sends to DNC_LOAD_URL: set it to the deployed shop's address (or give --url).");
const username = process.env.DNC_LOAD_USERNAME || (values.remote ? undefined : DEMO_ADMIN.username);
const password = process.env.DNC_LOAD_PASSWORD || (values.remote ? undefined : DEMO_ADMIN.password);
if (!username || !password) fail("Set DNC_LOAD_USERNAME and DNC_LOAD_PASSWORD to an admin's sign-in.");
const san = values.san || process.env.DNC_LOAD_SAN;
if (scope === "national" && !san) fail("The National Registry needs the shop's SAN: --san or DNC_LOAD_SAN.");

let peakHeap = 0;
const sampler = setInterval(() => {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}, 200);
const started = performance.now();
try {
  const { upload } = await loadRegistry({
    baseURL,
    username,
    password,
    dir,
    scope,
    downloadDate: values["download-date"] ?? new Date().toISOString().slice(0, 10),
    ...(san ? { san } : {}),
  });
  const numbers = numbersAfter(upload);
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  console.log(
    `Upload ${upload.id}: ${upload.status}, ${numbers.toLocaleString("en-US")} numbers on the registry, ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s, peak heap ${(peakHeap / 2 ** 20).toFixed(0)} MB.`,
  );
  if (upload.status !== "applied") process.exitCode = 1;
} catch (error) {
  fail(error instanceof LoadError ? error.message : String(error), 1);
} finally {
  clearInterval(sampler);
}

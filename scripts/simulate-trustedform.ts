/**
 * `npm run simulate:trustedform -- [--port 8798] [--host 127.0.0.1] [--outcomes outcomes.json]`: a local
 * TrustedForm claim endpoint (docs/decisions/0054). Set `TRUSTEDFORM_CLAIM_URL=http://127.0.0.1:8798` in
 * .dev.vars and a sold lead's certificate is claimed here: verified, expired or not found per certificate id
 * (the outcomes file's entry, else ids starting 'dead' are not found, 'ee' expired, any other verified).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { listenTrustedFormStandIn, parseOutcomes } from "./lib/trustedform-stand-in.ts";

const USAGE = "Usage: npm run simulate:trustedform -- [--port 8798] [--host 127.0.0.1] [--outcomes outcomes.json]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values: { port?: string; host?: string; outcomes?: string };
try {
  ({ values } = parseArgs({
    options: { port: { type: "string" }, host: { type: "string" }, outcomes: { type: "string" } },
    strict: true,
  }));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const port = Number(values.port ?? 8798);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail("--port must be a whole number from 0 to 65535.");
let outcomes = {};
if (values.outcomes) {
  try {
    outcomes = parseOutcomes(readFileSync(values.outcomes, "utf8"));
  } catch (error) {
    fail(`--outcomes: ${error instanceof Error ? error.message : String(error)}`);
  }
}
const host = values.host ?? "127.0.0.1";
const standIn = await listenTrustedFormStandIn({ port, host, outcomes }).catch((error: unknown) =>
  fail(`Could not listen on ${host}:${port}: ${error instanceof Error ? error.message : error}`),
);
console.log(`TrustedForm stand-in listening on ${standIn.url} (TRUSTEDFORM_CLAIM_URL=${standIn.url}). Ctrl+C stops.`);
const stop = async () => {
  await standIn.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

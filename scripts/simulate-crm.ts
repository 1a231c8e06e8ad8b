/**
 * `npm run simulate:crm -- --port 8799 --secret whsec_… [--fail-rate 0.3] [--slow-ms 12000]`: a local
 * receiver for buyer webhooks (docs/webhooks.md). Point an endpoint at http://localhost:8799/ (plain
 * http is allowed to localhost while developing) and paste its signing secret. Each event is checked
 * (signature within the 5-minute tolerance, documented schema) and printed; `--fail-rate` answers that
 * share of events 500 and `--slow-ms` delays every answer, to watch retries and timeouts. During a
 * secret rotation, give both secrets: `--secret whsec_new,whsec_old`.
 */
import { parseArgs } from "node:util";
import { WEBHOOK_SECRET_PREFIX } from "../src/features/webhooks/signature.ts";
import { listenCrmReceiver } from "./lib/crm-receiver.ts";

const USAGE =
  "Usage: npm run simulate:crm -- --secret whsec_… [--port 8799] [--host 127.0.0.1] [--fail-rate 0.3] [--slow-ms 12000]";

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

/** The flags as given; an unknown flag, a missing value or a stray argument exits 2 with the usage. */
function readFlags() {
  try {
    return parseArgs({
      options: {
        secret: { type: "string" },
        port: { type: "string", default: "8799" },
        host: { type: "string", default: "127.0.0.1" },
        "fail-rate": { type: "string", default: "0" },
        "slow-ms": { type: "string", default: "0" },
      },
      strict: true,
    }).values;
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

function numberFlag(name: "port" | "fail-rate" | "slow-ms", max: number): number {
  const number = Number(flags[name]);
  if (!Number.isFinite(number) || number < 0 || number > max) fail(`--${name} must be a number from 0 to ${max}.`);
  return number;
}

const flags = readFlags();
if (flags.secret === undefined) fail("--secret is required: the endpoint's signing secret.");
const secrets = flags.secret.split(",").map((secret) => secret.trim());
if (secrets.some((secret) => !secret.startsWith(WEBHOOK_SECRET_PREFIX))) {
  fail(`--secret must be the endpoint's signing secret, starting with ${WEBHOOK_SECRET_PREFIX}.`);
}
const port = numberFlag("port", 65535);
const failRate = numberFlag("fail-rate", 1);
const slowMs = numberFlag("slow-ms", 10 * 60 * 1000);
const { host } = flags;

const receiver = await listenCrmReceiver({ secrets, port: Math.floor(port), host, failRate, slowMs }).catch(
  (error: unknown) => fail(`Could not listen on ${host}:${port}: ${error instanceof Error ? error.message : error}`),
);
console.log(`Simulated CRM listening on ${receiver.url}`);
console.log(
  `Checking signatures with ${secrets.length} secret(s)${failRate > 0 ? `, failing ${Math.round(failRate * 100)}% of events` : ""}${slowMs > 0 ? `, answering after ${slowMs} ms` : ""}. Ctrl+C stops.`,
);

const stop = async () => {
  await receiver.close();
  const { delivered, failed, rejected, duplicates, eventIds } = receiver.stats;
  console.log(
    `\n${eventIds.size} events received (${delivered} 2xx answers, ${duplicates} duplicates), ${failed} failed on purpose, ${rejected} refused.`,
  );
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);

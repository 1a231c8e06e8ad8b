/**
 * A local stand-in for TrustedForm's claim endpoint (docs/decisions/0054), for `npm run simulate:trustedform`
 * and its tests: `POST /<certificate id>` answers as the Worker's claimer expects (worker/services/
 * consent-certificates.ts): 200 and `{ outcome: "verified", expires_at }`, 410 `expired` or 404 `not_found`.
 * Which one is decided per id: an entry of the outcomes file first, else the rule on the id.
 */
import { createServer } from "node:http";

const STAND_IN_OUTCOMES = ["verified", "expired", "not_found"] as const;
export type StandInOutcome = (typeof STAND_IN_OUTCOMES)[number];

const STATUS: Record<StandInOutcome, number> = { verified: 200, expired: 410, not_found: 404 };
/** A claimed certificate is retained this long (TrustedForm's default retention is 90 days). */
const RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

/** The rule without an outcomes file: an id starting 'dead' is unknown, one starting 'ee' expired, any other verified. */
export function outcomeOf(id: string, outcomes: Readonly<Record<string, StandInOutcome>> = {}): StandInOutcome {
  const listed = outcomes[id];
  if (listed) return listed;
  const lower = id.toLowerCase();
  if (lower.startsWith("dead")) return "not_found";
  if (lower.startsWith("ee")) return "expired";
  return "verified";
}

/** An outcomes file's JSON (`{ "<certificate id>": "verified" | "expired" | "not_found" }`), checked. */
export function parseOutcomes(json: string): Record<string, StandInOutcome> {
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error("The outcomes file must be a JSON object of certificate id → outcome.");
  }
  for (const [id, outcome] of Object.entries(parsed)) {
    if (!STAND_IN_OUTCOMES.includes(outcome as StandInOutcome)) {
      throw new Error(`The outcome of ${id} must be one of ${STAND_IN_OUTCOMES.join(", ")}.`);
    }
  }
  return parsed as Record<string, StandInOutcome>;
}

export interface StandInOptions {
  port: number;
  host?: string;
  outcomes?: Record<string, StandInOutcome>;
  log?: (line: string) => void;
}

/** Starts the stand-in; `url` is the claim URL to set as TRUSTEDFORM_CLAIM_URL. */
export async function listenTrustedFormStandIn(options: StandInOptions) {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? console.log;
  const server = createServer((request, response) => {
    const id = decodeURIComponent((request.url ?? "/").slice(1).split("?")[0] ?? "");
    const answer = (status: number, body: Record<string, unknown>) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (request.method !== "POST") return answer(405, { message: "POST /<certificate id> claims a certificate." });
    if (!/^[-_.a-zA-Z0-9]{20,500}$/.test(id))
      return answer(404, { outcome: "not_found", message: "Not a certificate id." });
    // The claim's body (reference, vendor, match_lead) is read and ignored: every id decides its own answer.
    request.resume();
    request.on("end", () => {
      const outcome = outcomeOf(id, options.outcomes);
      log(`${STATUS[outcome]} ${outcome} ${id}`);
      answer(STATUS[outcome], {
        outcome,
        ...(outcome === "verified" ? { expires_at: new Date(Date.now() + RETENTION_MS).toISOString() } : {}),
        message: `Certificate ${outcome.replace("_", " ")}.`,
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`, close };
}

/**
 * The local server takes simulated payments (any card number "pays") only on a loopback bind
 * (product rule 9): the Worker checks that a request names localhost, but a Host header is the caller's to choose,
 * so only the address the server listens on keeps other machines out.
 */
import { isIP } from "node:net";

/** localhost, 127.0.0.0/8 and ::1 (bracketed or not). */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (isIP(name) === 4) return name.startsWith("127.");
  if (isIP(name) === 6) return name === "::1" || name === "0:0:0:0:0:0:0:1" || /^::ffff:127\./.test(name);
  return false;
}

/** Why the Worker may not be served on `host` with these bindings, or null when it may. */
export function simulatedPaymentsHostProblem(host: string, bindings: Record<string, unknown>): string | null {
  if (bindings.ALLOW_SIMULATED_PAYMENTS !== "true" || isLoopbackHost(host)) return null;
  return [
    `Refusing to serve on --host ${host}: simulated payments are on, and they take any card number as paid.`,
    "Serve on a loopback address (localhost, 127.0.0.1 or ::1), or switch simulated payments off with",
    `--vars '{"ALLOW_SIMULATED_PAYMENTS":"false"}' and put Stripe test keys in .dev.vars.`,
  ].join("\n");
}

/**
 * Which endpoint URLs a webhook may be sent to (docs/product-rules.md rule 41, decision 0037). Checked
 * when an endpoint is saved and again before every send, since a host name can be pointed elsewhere
 * later. `checkWebhookUrl` reads the URL alone; `checkWebhookTarget` also resolves the host name through
 * a `ResolveHost` the caller gives (DNS-over-HTTPS in the Worker, a fake in tests). Each refusal
 * carries a message meant for the buyer (the API answers it as a 4xx).
 */
import { WEBHOOK_URL_MAX } from "../webhook-outbox/index.ts";
import { blockedAddressReason, parseIPv4, parseIPv6 } from "./ip.ts";

/** `production` unless APP_ENV says `development`: an unknown value gets the strict rules. */
export type WebhookEnvironment = "production" | "development";
export const webhookEnvironment = (appEnv: string | undefined): WebhookEnvironment =>
  appEnv === "development" ? "development" : "production";

export type UrlCheck =
  | {
      ok: true;
      /** The URL as it will be requested (normalized by the URL parser). */
      url: string;
      /** Lower-case host name, IPv6 without brackets. */
      host: string;
      /** The host is an IP address: there is nothing to resolve. */
      ipLiteral: boolean;
      /** A loopback host allowed only while developing: not resolved, not refused. */
      developmentLoopback: boolean;
    }
  | { ok: false; message: string };

const refuse = (message: string): UrlCheck => ({ ok: false, message });
const PUBLIC_ONLY = "webhooks go only to public internet addresses";

/** Names that reach the machine itself or its cloud's metadata service. */
const METADATA_HOSTS = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
  "metadata.platformequinix.com",
]);
/** Last labels that name no public host: special-use names (RFC 6761, 6762, 8375, 9476) and common private ones. */
const PRIVATE_SUFFIXES = [
  "localhost",
  "local",
  "localdomain",
  "internal",
  "intranet",
  "lan",
  "home",
  "corp",
  "private",
  "home.arpa",
  "arpa",
  "test",
  "invalid",
  "example",
  "onion",
  "alt",
  "svc",
];
const DEVELOPMENT_LOOPBACK = new Set(["localhost", "127.0.0.1", "::1"]);
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The host exactly as typed (before the URL parser rewrites `0x7f.1` to `127.0.0.1`), lower-case. */
function typedHost(input: string): string | null {
  const authority = /^https?:\/\/([^/?#]*)/i.exec(input)?.[1];
  if (authority === undefined) return null;
  const hostAndPort = authority.slice(authority.lastIndexOf("@") + 1);
  if (hostAndPort.startsWith("[")) return hostAndPort.slice(0, hostAndPort.indexOf("]") + 1).toLowerCase();
  const colon = hostAndPort.lastIndexOf(":");
  return (colon === -1 ? hostAndPort : hostAndPort.slice(0, colon)).toLowerCase();
}

/**
 * Checks an endpoint URL on its own: https (http only to localhost while developing), no user name or
 * password, a public-looking host name or a public IP address in its plain spelling, an ordinary port.
 */
export function checkWebhookUrl(input: string, environment: WebhookEnvironment): UrlCheck {
  const text = input.trim();
  if (text.length > WEBHOOK_URL_MAX) return refuse(`The endpoint URL is longer than ${WEBHOOK_URL_MAX} characters.`);
  let url: URL;
  try {
    if (!/^https?:\/\/[^/\\]/i.test(text)) throw new TypeError("not an http(s) URL");
    url = new URL(text);
  } catch {
    return refuse("Enter the endpoint's full URL, starting with https:// (e.g. https://crm.example.com/webhooks).");
  }
  if (url.username || url.password) {
    return refuse("The endpoint URL must not contain a user name or password; use the signing secret instead.");
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const developmentLoopback = environment === "development" && DEVELOPMENT_LOOPBACK.has(host);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && developmentLoopback)) {
    return refuse(
      environment === "development"
        ? "The endpoint must use https:// (plain http:// only to localhost, 127.0.0.1 or [::1] while developing)."
        : "The endpoint must use https://.",
    );
  }
  if (developmentLoopback)
    return { ok: true, url: url.href, host, ipLiteral: host !== "localhost", developmentLoopback };

  const port = url.port === "" ? 443 : Number(url.port);
  if (port !== 443 && port < 1024) return refuse("The endpoint must use port 443 or a port from 1024 to 65535.");

  const ipLiteral = parseIPv4(host) !== null || parseIPv6(host) !== null;
  if (ipLiteral) {
    const typed = typedHost(text);
    if (parseIPv4(host) !== null && typed !== host) {
      return refuse(
        `Write the IP address as four decimal numbers (${host}), not in hex, octal, or a shortened or single-number form.`,
      );
    }
    const reason = blockedAddressReason(host);
    return reason
      ? refuse(`${host} is ${reason}: ${PUBLIC_ONLY}.`)
      : { ok: true, url: url.href, host, ipLiteral, developmentLoopback };
  }
  return checkHostName(host) ?? { ok: true, url: url.href, host, ipLiteral, developmentLoopback };
}

function checkHostName(host: string): UrlCheck | null {
  if (host.endsWith(".")) return refuse(`Write the host name without the trailing dot (${host.slice(0, -1)}).`);
  if (METADATA_HOSTS.has(host)) return refuse(`${host} is a cloud metadata service: ${PUBLIC_ONLY}.`);
  const privateSuffix = PRIVATE_SUFFIXES.find((suffix) => host === suffix || host.endsWith(`.${suffix}`));
  if (privateSuffix) return refuse(`${host} is a local or internal name (.${privateSuffix}): ${PUBLIC_ONLY}.`);
  const labels = host.split(".");
  if (labels.length < 2) {
    return refuse(`${host} is not a public host name; use a full name such as crm.example.com.`);
  }
  if (host.length > 253 || !labels.every((label) => LABEL.test(label)) || /^\d+$/.test(labels.at(-1) ?? "")) {
    return refuse(`${host} is not a valid host name (letters, digits and hyphens between dots).`);
  }
  return null;
}

/** Looks a host name up: every IPv4 and IPv6 address it resolves to (empty when it has none). */
export type ResolveHost = (host: string) => Promise<string[]>;

/**
 * `checkWebhookUrl`, then, for a host name, its DNS answers: refused when it has none or when any of
 * them is not public (a name may point anywhere, so one private answer is enough to refuse).
 */
export async function checkWebhookTarget(
  input: string,
  environment: WebhookEnvironment,
  resolveHost: ResolveHost,
): Promise<UrlCheck> {
  const checked = checkWebhookUrl(input, environment);
  if (!checked.ok || checked.ipLiteral || checked.developmentLoopback) return checked;
  let addresses: string[];
  try {
    addresses = await resolveHost(checked.host);
  } catch {
    return refuse(`${checked.host} could not be looked up just now; try again in a minute.`);
  }
  if (addresses.length === 0) return refuse(`${checked.host} has no address in DNS; check the host name.`);
  for (const address of addresses) {
    const reason = blockedAddressReason(address);
    if (reason) return refuse(`${checked.host} resolves to ${address}, ${reason}: ${PUBLIC_ONLY}.`);
  }
  return checked;
}

// ——— DNS over HTTPS (the Worker's ResolveHost) ———

/** Cloudflare's DNS-over-HTTPS JSON API. */
export const DOH_ENDPOINT = "https://cloudflare-dns.com/dns-query";
const RECORD_A = 1;
const RECORD_AAAA = 28;
const NXDOMAIN = 3;

/** What `fetch` gives that the resolver reads; the Worker's fetch fits, and so does a test's fake. */
export type DohFetch = (
  url: string,
  init: { headers: Record<string, string> },
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;

/** The A or AAAA addresses of one DoH JSON answer; CNAME records on the way are skipped. */
export function addressesFromDohAnswer(answer: unknown, type: "A" | "AAAA"): string[] {
  const status = (answer as { Status?: unknown } | null)?.Status;
  if (status === NXDOMAIN) return [];
  if (status !== 0) throw new Error(`DNS answered status ${String(status)}`);
  const records = (answer as { Answer?: unknown }).Answer;
  if (!Array.isArray(records)) return [];
  const wanted = type === "A" ? RECORD_A : RECORD_AAAA;
  return records
    .filter(
      (record): record is { type: number; data: string } => record?.type === wanted && typeof record.data === "string",
    )
    .map((record) => record.data);
}

/** A `ResolveHost` over DNS-over-HTTPS: both A and AAAA, so an IPv6-only private answer is seen too. */
export function dohResolver(fetchJson: DohFetch, endpoint: string = DOH_ENDPOINT): ResolveHost {
  return async (host) => {
    const lookups = (["A", "AAAA"] as const).map(async (type) => {
      const response = await fetchJson(`${endpoint}?name=${encodeURIComponent(host)}&type=${type}`, {
        headers: { accept: "application/dns-json" },
      });
      if (!response.ok) throw new Error(`DNS over HTTPS answered HTTP ${response.status}`);
      return addressesFromDohAnswer(await response.json(), type);
    });
    return (await Promise.all(lookups)).flat();
  };
}

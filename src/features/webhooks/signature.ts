/**
 * Webhook signatures like Stripe's (docs/product-rules.md rule 41, decision 0037):
 *
 *   Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the secret>
 *
 * During a rotation's grace period the event is signed with both secrets, one `v1=` each; a receiver
 * accepts the event when any `v1` matches a secret it knows. WebCrypto only: Workers, Node and browsers.
 */
import {
  bodyBytes,
  fromHex,
  randomBytes,
  toBase64Url,
  toHex,
  utf8,
  WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
} from "../webhook-outbox/index.ts";

export const WEBHOOK_SIGNATURE_HEADER = "Webhook-Signature";
export const WEBHOOK_SECRET_PREFIX = "whsec_";
/** `whsec_` and 32 random bytes in URL-safe base64 (43 characters). */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;
/** A header longer than this, or with more signatures, is refused unread (a receiver's cheap guard). */
const MAX_HEADER_LENGTH = 2048;
const MAX_SIGNATURES = 8;

/** Unix seconds, as `t=` carries them. */
export const unixSeconds = (epochMs: number = Date.now()): number => Math.floor(epochMs / 1000);

/** A new signing secret, shown to the buyer once. */
export const generateWebhookSecret = (bytes: (length: number) => Uint8Array = randomBytes): string =>
  `${WEBHOOK_SECRET_PREFIX}${toBase64Url(bytes(32))}`;

/** The HMAC key is the whole secret, `whsec_` included, as UTF-8: what a receiver has is what it uses. */
function hmacKey(secret: string): Promise<CryptoKey> {
  if (secret.length === 0) throw new Error("A webhook secret must not be empty.");
  return crypto.subtle.importKey("raw", utf8(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** `<t>.<body>` as bytes: the body exactly as sent, byte for byte. */
function signedPayload(timestamp: number, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = utf8(`${timestamp}.`);
  const rest = bodyBytes(body);
  const joined = new Uint8Array(prefix.length + rest.length);
  joined.set(prefix);
  joined.set(rest, prefix.length);
  return joined;
}

function checkTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`The timestamp must be whole unix seconds, not ${timestamp}`);
  }
}

/** The hex HMAC-SHA256 of `<timestamp>.<body>` under `secret`. */
export async function signWebhook(secret: string, body: string | Uint8Array, timestamp: number): Promise<string> {
  checkTimestamp(timestamp);
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), signedPayload(timestamp, body));
  return toHex(new Uint8Array(mac));
}

/** The header's value: `t=…` and one `v1=…` per secret (current first, then the one in its grace period). */
export async function webhookSignatureHeader(
  secrets: readonly string[],
  body: string | Uint8Array,
  timestamp: number,
): Promise<string> {
  if (secrets.length === 0) throw new Error("Signing needs at least one secret.");
  const signatures = await Promise.all(secrets.map((secret) => signWebhook(secret, body, timestamp)));
  return [`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(",");
}

export interface ParsedSignatureHeader {
  timestamp: number;
  /** The `v1` signatures; other schemes (a future `v2`) are skipped. */
  signatures: string[];
}

/** `t=…,v1=…[,v1=…]` → its parts, or null when it is not of that form. */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader | null {
  if (!header || header.length > MAX_HEADER_LENGTH) return null;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const equals = part.indexOf("=");
    if (equals < 1) return null;
    const key = part.slice(0, equals).trim();
    const value = part.slice(equals + 1).trim();
    if (key === "t") {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === "v1") {
      if (!/^[0-9a-f]{64}$/i.test(value)) return null;
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === null || signatures.length === 0 || signatures.length > MAX_SIGNATURES) return null;
  return { timestamp, signatures };
}

export type SignatureCheck =
  | { ok: true; timestamp: number }
  | { ok: false; reason: "malformed" | "outside_tolerance" | "mismatch"; message: string };

/**
 * Checks a `Webhook-Signature` header against the body as received and the secrets the receiver holds
 * (several during a rotation). `now` and the tolerance are in seconds; a timestamp further than the
 * tolerance from `now`, either way, is refused so a captured request cannot be replayed later.
 */
export async function verifyWebhookSignature(
  header: string | null | undefined,
  body: string | Uint8Array,
  secrets: readonly string[],
  now: number,
  toleranceSeconds: number = WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
): Promise<SignatureCheck> {
  const parsed = parseSignatureHeader(header);
  if (!parsed) {
    return {
      ok: false,
      reason: "malformed",
      message: `The ${WEBHOOK_SIGNATURE_HEADER} header is missing or not of the form t=<unix seconds>,v1=<hex>.`,
    };
  }
  if (Math.abs(now - parsed.timestamp) > toleranceSeconds) {
    return {
      ok: false,
      reason: "outside_tolerance",
      message: `The signature's timestamp is more than ${toleranceSeconds} seconds from now.`,
    };
  }
  const payload = signedPayload(parsed.timestamp, body);
  for (const secret of secrets) {
    if (!secret) continue;
    const key = await hmacKey(secret);
    for (const signature of parsed.signatures) {
      const bytes = fromHex(signature);
      // subtle.verify compares in constant time.
      if (bytes && (await crypto.subtle.verify("HMAC", key, bytes, payload))) {
        return { ok: true, timestamp: parsed.timestamp };
      }
    }
  }
  return { ok: false, reason: "mismatch", message: "No signature matches the body with the secrets given." };
}

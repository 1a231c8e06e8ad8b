/**
 * Password hashing (product rule 29): PBKDF2-SHA256 with a random 16-byte salt at the Workers
 * maximum of 100,000 iterations. Stored as `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`.
 * Runs unchanged in the Worker and in Node (scripts), both of which provide WebCrypto.
 */
import { decodeBase64, encodeBase64 } from "@oslojs/encoding";

/** Cloudflare Workers refuse PBKDF2 above this count in production. */
const PBKDF2_MAX_ITERATIONS = 100_000;
/** New hashes use the most the Workers allow. */
export const PBKDF2_ITERATIONS = PBKDF2_MAX_ITERATIONS;
const SCHEME = "pbkdf2-sha256";
const HASH_BYTES = 32;

const toBase64 = encodeBase64;
const fromBase64 = (text: string) => new Uint8Array(decodeBase64(text));

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    HASH_BYTES * 8,
  );
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `${SCHEME}$${PBKDF2_ITERATIONS}$${toBase64(salt)}$${toBase64(hash)}`;
}

/** Constant-time comparison of the derived hash; false for any malformed stored value. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterationsText, saltText, hashText] = stored.split("$");
  const iterations = Number(iterationsText);
  if (scheme !== SCHEME || !saltText || !hashText || !Number.isInteger(iterations)) return false;
  if (iterations < 1 || iterations > PBKDF2_MAX_ITERATIONS) return false;
  const expected = fromBase64(hashText);
  const actual = await derive(password, fromBase64(saltText), iterations);
  if (actual.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < actual.length; i++) difference |= (actual[i] ?? 0) ^ (expected[i] ?? 0);
  return difference === 0;
}

/**
 * Signing secrets at rest (decision 0037): AES-256-GCM under a key from the Worker's secrets, never plain
 * text in D1. The Worker secret holds a key ring, current key first:
 *
 *   WEBHOOK_SECRETS_KEY = "k2:<base64 of 32 bytes>,k1:<base64 of 32 bytes>"
 *
 * Each stored value names its key (`enc1:<key id>:<iv>:<ciphertext>`), so a new key can be put first
 * while older values still decrypt, then be re-encrypted (`needsReencryption`) and the old key dropped.
 * The row's own id is bound in as additional data: a value copied to another row does not decrypt.
 */
import { fromBase64, randomBytes, toBase64, toBase64Url, utf8 } from "../webhook-outbox/index.ts";

export const WEBHOOK_SECRETS_KEY_NAME = "WEBHOOK_SECRETS_KEY";
const FORMAT = "enc1";
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const IV_BYTES = 12;

export class SecretBoxError extends Error {
  override name = "SecretBoxError";
}

export interface SecretKeyRing {
  /** The key new values are encrypted with. */
  currentKeyId: string;
  keys: ReadonlyMap<string, CryptoKey>;
}

const FORMAT_HELP = `${WEBHOOK_SECRETS_KEY_NAME} must be "<key id>:<base64 of 32 random bytes>", current key first, older keys after commas (e.g. "k2:…,k1:…")`;

/** Reads the key ring from the Worker secret's value; throws a SecretBoxError naming what is wrong. */
export async function loadSecretKeyRing(value: string | undefined): Promise<SecretKeyRing> {
  if (!value?.trim()) throw new SecretBoxError(`${WEBHOOK_SECRETS_KEY_NAME} is not set. ${FORMAT_HELP}.`);
  const keys = new Map<string, CryptoKey>();
  let currentKeyId: string | null = null;
  for (const entry of value.split(",")) {
    const colon = entry.indexOf(":");
    const id = entry.slice(0, colon).trim();
    const raw = colon > 0 ? fromBase64(entry.slice(colon + 1)) : null;
    if (!KEY_ID.test(id) || raw === null) throw new SecretBoxError(`${FORMAT_HELP}.`);
    if (raw.length !== 32) throw new SecretBoxError(`Key ${id} of ${WEBHOOK_SECRETS_KEY_NAME} is not 32 bytes.`);
    if (keys.has(id)) throw new SecretBoxError(`Key id ${id} appears twice in ${WEBHOOK_SECRETS_KEY_NAME}.`);
    keys.set(id, await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]));
    currentKeyId ??= id;
  }
  if (currentKeyId === null) throw new SecretBoxError(`${FORMAT_HELP}.`);
  return { currentKeyId, keys };
}

/** A new key ring entry for an operator: `<id>:<base64 of 32 random bytes>`. */
export function generateSecretsKey(id: string, bytes: (length: number) => Uint8Array = randomBytes): string {
  if (!KEY_ID.test(id)) throw new SecretBoxError("A key id is 1-32 letters, digits, - or _.");
  return `${id}:${toBase64(bytes(32))}`;
}

/** Encrypts `plaintext` for the row `context` (e.g. the endpoint's id) with the current key. */
export async function encryptSecret(ring: SecretKeyRing, plaintext: string, context: string): Promise<string> {
  const key = ring.keys.get(ring.currentKeyId);
  if (!key) throw new SecretBoxError(`The current key ${ring.currentKeyId} is missing from the key ring.`);
  const iv = randomBytes(IV_BYTES);
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: utf8(context) },
    key,
    utf8(plaintext),
  );
  return [FORMAT, ring.currentKeyId, toBase64Url(iv), toBase64Url(new Uint8Array(sealed))].join(":");
}

/** The key id a stored value was encrypted with, or null when the value is not of this format. */
export function storedSecretKeyId(stored: string): string | null {
  const parts = stored.split(":");
  return parts.length === 4 && parts[0] === FORMAT && KEY_ID.test(parts[1] ?? "") ? (parts[1] ?? null) : null;
}

/** True when a stored value is under an older key and should be encrypted again with the current one. */
export const needsReencryption = (ring: SecretKeyRing, stored: string): boolean =>
  storedSecretKeyId(stored) !== ring.currentKeyId;

/** Decrypts a stored value of the row `context`; throws a SecretBoxError when it cannot. */
export async function decryptSecret(ring: SecretKeyRing, stored: string, context: string): Promise<string> {
  const keyId = storedSecretKeyId(stored);
  if (keyId === null) throw new SecretBoxError("The stored secret is not an encrypted value.");
  const key = ring.keys.get(keyId);
  if (!key) throw new SecretBoxError(`The stored secret needs key ${keyId}, which ${WEBHOOK_SECRETS_KEY_NAME} lacks.`);
  const [, , ivText = "", sealedText = ""] = stored.split(":");
  const iv = fromBase64(ivText);
  const sealed = fromBase64(sealedText);
  if (!iv || iv.length !== IV_BYTES || !sealed) throw new SecretBoxError("The stored secret is damaged.");
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData: utf8(context) }, key, sealed);
    return new TextDecoder().decode(plain);
  } catch {
    throw new SecretBoxError("The stored secret could not be decrypted (altered, or stored for another row).");
  }
}

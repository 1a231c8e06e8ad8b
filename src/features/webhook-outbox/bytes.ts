/**
 * Byte helpers for webhook signing, secret storage and passwords: hex and base64 from @oslojs/encoding
 * (Workers, Node and browsers alike, no Buffer).
 */
import {
  decodeBase64IgnorePadding,
  decodeHex,
  encodeBase64,
  encodeBase64urlNoPadding,
  encodeHexLowerCase,
} from "@oslojs/encoding";

const encoder = new TextEncoder();

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text);

/** A body as the bytes that were (or will be) sent: strings are UTF-8 encoded. */
export const bodyBytes = (body: string | Uint8Array): Uint8Array<ArrayBuffer> =>
  typeof body === "string" ? utf8(body) : new Uint8Array(body);

export const toHex = (bytes: Uint8Array): string => encodeHexLowerCase(bytes);

/** Lower- or upper-case hex of an even length, else null. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) return null;
  return new Uint8Array(decodeHex(hex));
}

/** URL-safe base64 without padding. */
export const toBase64Url = (bytes: Uint8Array): string => encodeBase64urlNoPadding(bytes);

/** Standard base64, padded. */
export const toBase64 = (bytes: Uint8Array): string => encodeBase64(bytes);

/** Standard or URL-safe base64, padded or not; null when the text is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  const standard = text.trim().replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard)) return null;
  try {
    return new Uint8Array(decodeBase64IgnorePadding(standard.replace(/=+$/, "")));
  } catch {
    return null;
  }
}

/** Cryptographically random bytes (WebCrypto, in Workers, Node and browsers). */
export const randomBytes = (length: number): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(length));

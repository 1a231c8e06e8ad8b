/**
 * Byte helpers for webhook signing and secret storage. Workers and Node both have TextEncoder, btoa and
 * atob but not always Buffer, so these stay on the web platform.
 */

const encoder = new TextEncoder();

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text);

/** A body as the bytes that were (or will be) sent: strings are UTF-8 encoded. */
export const bodyBytes = (body: string | Uint8Array): Uint8Array<ArrayBuffer> =>
  typeof body === "string" ? utf8(body) : new Uint8Array(body);

export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** Lower- or upper-case hex of an even length, else null. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** URL-safe base64 without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Standard or URL-safe base64, padded or not; null when the text is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | null {
  const standard = text.trim().replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard) || standard.replace(/=+$/, "").length % 4 === 1) return null;
  const padded = standard.replace(/=+$/, "").padEnd(Math.ceil(standard.replace(/=+$/, "").length / 4) * 4, "=");
  try {
    const binary = atob(padded);
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Cryptographically random bytes (WebCrypto, in Workers, Node and browsers). */
export const randomBytes = (length: number): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(length));

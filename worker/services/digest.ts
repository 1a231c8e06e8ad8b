import { encodeHexLowerCase } from "@oslojs/encoding";

/** Hex SHA-256 of a secret (a link's token, a payment's client secret): what is stored instead of it. */
export async function sha256Hex(text: string): Promise<string> {
  return encodeHexLowerCase(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

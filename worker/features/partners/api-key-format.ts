/** What an API key looks like and how it is stored (SHA-256, hex); no imports, so scripts can use it too. */

/** Every key starts with this, so a leaked one is easy to recognise (and scan for). */
export const API_KEY_PREFIX = "fel_";
/** How many characters of a key are kept in clear to tell keys apart. */
export const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export async function hashApiKey(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

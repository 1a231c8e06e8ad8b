import { describe, expect, it } from "vitest";
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from "../../../../worker/features/accounts/passwords";

/** Cloudflare's documented limit for PBKDF2 in deployed Workers; wrangler dev does not enforce it. */
const WORKERS_PBKDF2_CAP = 100_000;

/** A correct stored value (`pbkdf2-sha256$<iterations>$<salt>$<hash>`) at any iteration count, made as Node allows. */
async function storedHash(password: string, iterations: number): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
  return `pbkdf2-sha256$${iterations}$${base64(salt)}$${base64(new Uint8Array(bits))}`;
}

describe("password hashing (product rule 29)", () => {
  it("stays within the Workers PBKDF2 cap and refuses stored hashes above it", async () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(WORKERS_PBKDF2_CAP);
    // Correct hashes of the password: the stored count is honoured up to the cap, refused past it.
    expect(await verifyPassword("x", await storedHash("x", 1_000))).toBe(true);
    expect(await verifyPassword("x", await storedHash("x", WORKERS_PBKDF2_CAP))).toBe(true);
    expect(await verifyPassword("x", await storedHash("x", WORKERS_PBKDF2_CAP + 1))).toBe(false);
  });
  it("salts every hash and verifies only the right password", async () => {
    const first = await hashPassword("correct horse");
    const second = await hashPassword("correct horse");
    expect(first).not.toBe(second);
    expect(first.startsWith(`pbkdf2-sha256$${PBKDF2_ITERATIONS}$`)).toBe(true);
    expect(await verifyPassword("correct horse", first)).toBe(true);
    expect(await verifyPassword("correct horsE", first)).toBe(false);
  });
  it("refuses malformed stored values", async () => {
    expect(await verifyPassword("x", "")).toBe(false);
    expect(await verifyPassword("x", "md5$1$a$b")).toBe(false);
  });
});

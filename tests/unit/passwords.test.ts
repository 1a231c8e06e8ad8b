import { describe, expect, it } from "vitest";
import { hashPassword, PBKDF2_ITERATIONS, verifyPassword } from "../../worker/services/passwords";

/** Cloudflare's documented limit for PBKDF2 in deployed Workers (NOTES.md); wrangler dev does not enforce it. */
const WORKERS_PBKDF2_CAP = 100_000;

describe("password hashing (D4)", () => {
  it("stays within the Workers PBKDF2 cap and refuses stored hashes above it", async () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(WORKERS_PBKDF2_CAP);
    const stored = await hashPassword("x");
    const aboveCap = stored.replace(`$${PBKDF2_ITERATIONS}$`, `$${WORKERS_PBKDF2_CAP + 1}$`);
    expect(await verifyPassword("x", stored)).toBe(true);
    expect(await verifyPassword("x", aboveCap)).toBe(false);
  });
  it("salts every hash and verifies only the right password", async () => {
    const first = await hashPassword("correct horse");
    const second = await hashPassword("correct horse");
    expect(first).not.toBe(second);
    expect(first.startsWith(`pbkdf2-sha256$${PBKDF2_ITERATIONS}$`)).toBe(true);
    expect(await verifyPassword("correct horse", first)).toBe(true);
    expect(await verifyPassword("correct horsE", first)).toBe(false);
  });
  it("refuses malformed or over-cap stored values", async () => {
    expect(await verifyPassword("x", "")).toBe(false);
    expect(await verifyPassword("x", "md5$1$a$b")).toBe(false);
    const overCap = (await hashPassword("x")).replace(`$${PBKDF2_ITERATIONS}$`, "$200000$");
    expect(await verifyPassword("x", overCap)).toBe(false);
  });
});

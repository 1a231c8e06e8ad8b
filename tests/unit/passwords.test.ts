import { describe, expect, it } from "vitest";
import {
  hashPassword,
  PBKDF2_ITERATIONS,
  PBKDF2_MAX_ITERATIONS,
  verifyPassword,
} from "../../worker/services/passwords";

describe("password hashing (D4)", () => {
  it("stays within the Workers PBKDF2 cap", () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    expect(PBKDF2_MAX_ITERATIONS).toBe(100_000);
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

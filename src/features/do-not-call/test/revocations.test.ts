/**
 * The revocation rules (docs/decisions/0082), pure: how far back a sale is told of, which lists revoke,
 * which days' digests may go out and how a digest line reads.
 */
import { describe, expect, it } from "vitest";
import {
  DIGEST_LOOK_BACK_DAYS,
  digestDays,
  REVOCATION_LOOK_BACK_MS,
  REVOKING_LIST_KINDS,
  revocationDay,
  revocationLine,
  revocationSince,
} from "../revocations";

const DAY = 86_400_000;

describe("revocations", () => {
  it("reach sales of the last 5 years (5 × 365 days and a leap day), not one day more", () => {
    expect(REVOCATION_LOOK_BACK_MS).toBe(1826 * DAY);
    const now = Date.UTC(2026, 10, 27, 15);
    expect(revocationSince(now)).toBe(Date.UTC(2021, 10, 27, 15));
  });

  it("come from every shared list, never from a buyer's private list", () => {
    expect(REVOKING_LIST_KINDS).toEqual(["national_dnc", "state_dnc", "litigator", "internal_dnc"]);
    expect(REVOKING_LIST_KINDS).not.toContain("buyer_private");
  });

  it("are digested per UTC day, once the day has ended, for the last two days", () => {
    expect(revocationDay(Date.UTC(2026, 10, 27, 23, 59))).toBe("2026-11-27");
    expect(DIGEST_LOOK_BACK_DAYS).toBe(2);
    expect(digestDays(Date.UTC(2026, 10, 27, 0, 5))).toEqual(["2026-11-25", "2026-11-26"]);
    // Never today: its revocations may still grow.
    expect(digestDays(Date.UTC(2026, 10, 27, 23, 59))).not.toContain("2026-11-27");
  });

  it("read as one line each: the item, its masked number and the list", () => {
    expect(
      revocationLine({ itemType: "transfer", itemId: "5b0c4c5e-8f3e", phone: "(214) ***-****", listKind: "litigator" }),
    ).toBe("Transfer 5b0c4c5e, (214) ***-****: Litigator list");
  });
});

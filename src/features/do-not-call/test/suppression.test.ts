import { describe, expect, it } from "vitest";
import { normalizeUsPhone } from "../../../domain/phone";
import { normalizeUsPhone as fromTransfers } from "../../transfers/transfers";
import { doNotCallSchema, SUPPRESSION_LIST_MESSAGES, suppressionListSchema } from "../schemas/suppression";
import {
  DO_NOT_CALL_MESSAGES,
  freshUntil,
  isListStale,
  isPhoneKey,
  isSharedList,
  LIST_FRESHNESS_DAYS,
  listAgeDays,
  PHONE_KEY_MAX,
  PHONE_KEY_MIN,
  phoneFromKey,
  phoneKey,
  SUPPRESSED_NO_ROUTE,
  SUPPRESSED_REASON,
  SUPPRESSION_LIST_KIND_LABELS,
  SUPPRESSION_LIST_KINDS,
} from "../suppression";

const at = (day: string, time = "12:00:00") => Date.parse(`${day}T${time}Z`);

describe("list kinds", () => {
  it("names every kind, and only a buyer's private list scrubs just its owner", () => {
    expect(SUPPRESSION_LIST_KINDS).toEqual(["national_dnc", "state_dnc", "litigator", "internal_dnc", "buyer_private"]);
    expect(Object.keys(SUPPRESSION_LIST_KIND_LABELS)).toEqual([...SUPPRESSION_LIST_KINDS]);
    expect(SUPPRESSION_LIST_KINDS.filter((kind) => !isSharedList(kind))).toEqual(["buyer_private"]);
  });
});

describe("the 31-day freshness rule", () => {
  it("keeps a list fresh through its 31st day and flags it from the 32nd", () => {
    expect(LIST_FRESHNESS_DAYS).toBe(31);
    expect(isListStale("2026-01-01", at("2026-01-01", "00:00:00"))).toBe(false);
    expect(isListStale("2026-01-01", at("2026-02-01", "23:59:59"))).toBe(false);
    expect(isListStale("2026-01-01", at("2026-02-02", "00:00:00"))).toBe(true);
    expect(listAgeDays("2026-01-01", at("2026-02-01"))).toBe(31);
    expect(freshUntil("2026-01-01")).toBe("2026-02-01");
    // Across a leap day.
    expect(freshUntil("2028-02-01")).toBe("2028-03-03");
  });

  it("flags a list whose refreshed-on day cannot be read", () => {
    for (const day of ["", "2026-02-30", "01/02/2026", "2026-1-1"]) {
      expect(isListStale(day, at("2026-01-05"))).toBe(true);
      expect(listAgeDays(day, at("2026-01-05"))).toBeNull();
    }
  });

  it("applies to outside lists only: the shop's own requests and buyers' lists never go stale", () => {
    const later = at("2027-01-01");
    expect(isListStale("2026-01-01", later, "state_dnc")).toBe(true);
    expect(isListStale("2026-01-01", later, "litigator")).toBe(true);
    expect(isListStale("2026-01-01", later, "internal_dnc")).toBe(false);
    expect(isListStale("2026-01-01", later, "buyer_private")).toBe(false);
  });
});

describe("the number key", () => {
  it("is the 10-digit number as an integer, and agrees with normalizeUsPhone", () => {
    expect(phoneKey("(305) 555-0100")).toBe(3055550100);
    expect(phoneKey("+1 305 555 0100")).toBe(3055550100);
    expect(phoneKey("1-305-555-0100")).toBe(3055550100);
    expect(phoneFromKey(3055550100)).toBe("3055550100");
    // transfers.ts re-exports the one rule.
    expect(fromTransfers).toBe(normalizeUsPhone);
    const samples = [
      "2145550100",
      "0145550100",
      "1145550100",
      "12145550100",
      "22145550100",
      "214555010",
      "+44 20 7946 0958",
      "9999999999",
      "2000000000",
      "",
      "call me",
    ];
    for (const text of samples) {
      const national = normalizeUsPhone(text);
      expect(phoneKey(text)).toBe(national === null ? null : Number(national));
    }
  });

  it("stays within the key range for every 10-digit number", () => {
    expect(isPhoneKey(PHONE_KEY_MIN) && isPhoneKey(PHONE_KEY_MAX)).toBe(true);
    expect(isPhoneKey(PHONE_KEY_MIN - 1) || isPhoneKey(PHONE_KEY_MAX + 1) || isPhoneKey(3055550100.5)).toBe(false);
    expect(phoneKey("2000000000")).toBe(PHONE_KEY_MIN);
    expect(phoneKey("9999999999")).toBe(PHONE_KEY_MAX);
    expect(Number.isSafeInteger(PHONE_KEY_MAX)).toBe(true);
  });
});

describe("the partner API's refusal", () => {
  it("is reason 'suppressed', with a message that names no list", () => {
    expect(SUPPRESSED_REASON).toBe("suppressed");
    expect(SUPPRESSED_NO_ROUTE.suppressed).toMatch(/Do Not Call/);
    expect(SUPPRESSED_NO_ROUTE.suppressed).not.toMatch(/national|state|litigator|private|buyer/i);
  });
});

const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? "" : result.error?.issues[0]?.message;

describe("the /do-not-call form", () => {
  it("needs only a US phone, and gives its 10 digits; the output parses to itself", () => {
    const parsed = doNotCallSchema.parse({ phone: " +1 (305) 555-0100 ", email: "", reason: "  " });
    expect(parsed).toEqual({ phone: "3055550100" });
    expect(doNotCallSchema.parse(parsed)).toEqual(parsed);
    expect(doNotCallSchema.parse({ phone: "3055550100", email: "ann@example.com", reason: "Stop" })).toEqual({
      phone: "3055550100",
      email: "ann@example.com",
      reason: "Stop",
    });
  });

  it.each([
    ["no phone", {}, DO_NOT_CALL_MESSAGES.phone],
    ["a short phone", { phone: "555-0100" }, DO_NOT_CALL_MESSAGES.phone],
    ["a non-US phone", { phone: "+44 20 7946 0958" }, DO_NOT_CALL_MESSAGES.phone],
    ["an area code starting with 1", { phone: "1055550100" }, DO_NOT_CALL_MESSAGES.phone],
    ["a bad e-mail", { phone: "3055550100", email: "ann@" }, DO_NOT_CALL_MESSAGES.email],
    ["a long reason", { phone: "3055550100", reason: "x".repeat(501) }, DO_NOT_CALL_MESSAGES.reason],
  ])("refuses %s", (_, input, expected) => {
    expect(message(doNotCallSchema.safeParse(input))).toBe(expected);
  });
});

describe("a list upload's details", () => {
  const list = { name: "National DNC, November", kind: "national_dnc", contents: "full", refreshedOn: "2026-11-01" };

  it("takes a name, an admin kind, what the file holds and the refreshed-on day", () => {
    expect(suppressionListSchema.parse(list)).toEqual(list);
  });

  it.each([
    ["no name", { name: " " }, SUPPRESSION_LIST_MESSAGES.name],
    ["the shop's own list as a file", { kind: "internal_dnc" }, SUPPRESSION_LIST_MESSAGES.kind],
    ["a buyer's list from the admin", { kind: "buyer_private" }, SUPPRESSION_LIST_MESSAGES.kind],
    ["an unknown file kind", { contents: "everything" }, SUPPRESSION_LIST_MESSAGES.contents],
    ["a day that does not exist", { refreshedOn: "2026-02-30" }, SUPPRESSION_LIST_MESSAGES.refreshedOn],
    ["a day next year", { refreshedOn: "2099-01-01" }, SUPPRESSION_LIST_MESSAGES.refreshedOn],
  ])("refuses %s", (_, change, expected) => {
    expect(message(suppressionListSchema.safeParse({ ...list, ...change }))).toBe(expected);
  });
});

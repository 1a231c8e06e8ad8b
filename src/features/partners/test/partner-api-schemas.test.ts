/**
 * The partner API's payloads live in src/features/transfers/schemas/partner-api.ts, the services'
 * types are inferred from them, and each field is checked once (by the schema): the service receives a
 * ten-digit phone and an upper-case state code.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import type { getTransfer, recordTransferEvent } from "../../../../worker/features/transfers/transfer-events";
import type { routeTransfer } from "../../../../worker/features/transfers/transfer-routing";
import {
  PROSPECT_PHONE_INVALID,
  pingSchema,
  type routeAnswerSchema,
  transferEventSchema,
  type transferSchema,
} from "../../transfers/schemas/partner-api";
import { MAX_API_KEY_NAME, newApiKeySchema } from "../schemas/partner-account";

const ping = (prospect: Record<string, unknown>) => ({
  prospect: { firstName: "Mary", lastName: "Johnson", phone: "2145551000", state: "TX", ...prospect },
  consent: { optInAt: "2026-03-04T14:55:00Z", optInUrl: "https://example.com/quote" },
});

describe("the partner API's ping schema", () => {
  it("hands routing a ten-digit phone and an upper-case state, whatever was sent", () => {
    const parsed = pingSchema.parse(ping({ phone: "+1 (214) 555-1000", state: " tx " }));
    expect(parsed.prospect).toMatchObject({ phone: "2145551000", state: "TX" });
  });

  it.each(["555-1000", "214-555-10000", "phone"])("refuses %s with the one message for a phone", (phone) => {
    const result = pingSchema.safeParse(ping({ phone }));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([PROSPECT_PHONE_INVALID]);
  });

  it("refuses an opt-in time that is not ISO 8601 (the service does not check it again)", () => {
    const result = pingSchema.safeParse({ ...ping({}), consent: { optInAt: "yesterday", optInUrl: "https://x.io" } });
    expect(result.error?.issues[0]?.message).toBe("consent.optInAt must be an ISO 8601 date and time");
  });

  it("reads a completed event with its duration, and refuses one without", () => {
    expect(transferEventSchema.parse({ type: "completed", durationSeconds: 185 })).toEqual({
      type: "completed",
      durationSeconds: 185,
    });
    expect(transferEventSchema.safeParse({ type: "completed" }).success).toBe(false);
  });
});

describe("the services' types are the schemas' (no second declaration)", () => {
  it("routing takes the parsed ping and answers the route answer", () => {
    expectTypeOf<Parameters<typeof routeTransfer>[2]>().toEqualTypeOf<z.output<typeof pingSchema>>();
    expectTypeOf<Awaited<ReturnType<typeof routeTransfer>>>().toEqualTypeOf<z.infer<typeof routeAnswerSchema>>();
  });

  it("events take the parsed event and answer the transfer as the API shows it", () => {
    expectTypeOf<Parameters<typeof recordTransferEvent>[3]>().toEqualTypeOf<z.output<typeof transferEventSchema>>();
    expectTypeOf<Awaited<ReturnType<typeof getTransfer>>>().toEqualTypeOf<z.infer<typeof transferSchema>>();
  });
});

describe("a partner portal key's name", () => {
  it("is trimmed and must be 1 to 60 characters, checked by the schema only", () => {
    expect(newApiKeySchema.parse({ name: "  Main dialer " })).toEqual({ name: "Main dialer" });
    for (const name of ["", "   ", "x".repeat(MAX_API_KEY_NAME + 1)]) {
      expect(newApiKeySchema.safeParse({ name }).error?.issues[0]?.message).toBe(
        `Give the key a name of 1 to ${MAX_API_KEY_NAME} characters.`,
      );
    }
  });
});

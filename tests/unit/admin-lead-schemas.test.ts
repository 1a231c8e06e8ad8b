import { describe, expect, it } from "vitest";
import { adminAgedLeadSchema, callbackOpportunitySchema } from "../../src/domain/schemas/admin-leads";

const form = { name: "Ann", phone: "2145550100", state: "TX" };

describe("admin aged-lead form schema", () => {
  it("treats blank optional fields as not given", () => {
    expect(adminAgedLeadSchema.parse({ ...form, email: "", price: "", ageRange: "", formFillTime: "" })).toEqual({
      ...form,
      email: "",
    });
  });
  it("reads a typed price and refuses a negative one", () => {
    expect(adminAgedLeadSchema.parse({ ...form, price: "7.5" }).price).toBe(7.5);
    expect(adminAgedLeadSchema.safeParse({ ...form, price: "-1" }).success).toBe(false);
  });
});

describe("callback opportunity schema", () => {
  it("requires a price", () => {
    const result = callbackOpportunitySchema.safeParse({ ...form, email: "a@example.com", price: "" });
    expect(result.success ? "" : result.error.issues[0]?.message).toBe("Price is required");
  });
});

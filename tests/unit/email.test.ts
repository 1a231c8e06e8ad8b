import { describe, expect, it } from "vitest";
import { isEmailAddress } from "../../src/domain/email";
import { emailAddress } from "../../src/domain/schemas/common";

const samples = [
  "ann@example.com",
  "  ann.lee+leads@agency.co.uk ",
  "a@b",
  "no-at-sign.example.com",
  "two@@example.com",
  ".dot@example.com",
  "ann@example.c",
  "",
  `${"a".repeat(250)}@example.com`,
];

describe("isEmailAddress", () => {
  it("answers what the shared zod schema answers, without loading zod in the browser", () => {
    const schema = emailAddress("bad");
    for (const sample of samples) expect(isEmailAddress(sample), sample).toBe(schema.safeParse(sample).success);
    expect(samples.filter(isEmailAddress)).toEqual(["ann@example.com", "  ann.lee+leads@agency.co.uk "]);
  });
});

/**
 * Decision 0074: the forms without a form library show, per field, the first message of the shared schema,
 * as react-hook-form's zod resolver did; a message on a field the form does not show is left out.
 */
import { describe, expect, it } from "vitest";
import { newPasswordFormSchema } from "../../src/features/accounts/index";
import { createReturnSchema } from "../../src/features/returns/schemas/returns";
import { firstMessages } from "../../src/ui/schema-form";

describe("firstMessages", () => {
  it("keeps each field's first message, in the schema's words", () => {
    const parsed = createReturnSchema.safeParse({ kind: "transfer", itemId: "", reason: undefined, reasonText: "" });
    expect(parsed.success).toBe(false);
    const errors = firstMessages(parsed.error?.issues ?? [], ["kind", "itemId", "reason", "reasonText"]);
    expect(errors).toEqual({ itemId: "Choose what to return", reason: "Choose a reason" });
  });

  it("puts a refinement's message on the field its path names", () => {
    const parsed = newPasswordFormSchema.safeParse({ password: "Str0ng-enough-pass", confirmPassword: "other" });
    const errors = firstMessages(parsed.error?.issues ?? [], ["password", "confirmPassword"]);
    expect(Object.keys(errors)).toEqual(["confirmPassword"]);
  });

  it("leaves out fields the form does not list", () => {
    const issues = [
      { path: ["hidden"], message: "not shown" },
      { path: ["name"], message: "first" },
      { path: ["name"], message: "second" },
    ];
    expect(firstMessages(issues, ["name"])).toEqual({ name: "first" });
  });
});

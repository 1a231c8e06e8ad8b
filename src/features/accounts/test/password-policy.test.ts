import { describe, expect, it } from "vitest";
import { isCommonPassword, newPasswordProblem } from "../../../../worker/features/accounts/password-policy";
import { PASSWORD_MIN, PASSWORD_TOO_COMMON, PASSWORD_TOO_SHORT } from "../password-rule";
import { newPassword } from "../schemas/auth";

describe("the password rule (product rule 29)", () => {
  it("needs PASSWORD_MIN characters, in the browser's schema and on the server", () => {
    const exact = "x7Rq!vLp#2kW9zT4".slice(0, PASSWORD_MIN);
    const short = exact.slice(0, -1);
    expect(newPasswordProblem(short)).toBe(PASSWORD_TOO_SHORT);
    expect(newPassword.safeParse(short).error?.issues[0]?.message).toBe(PASSWORD_TOO_SHORT);
    expect(newPasswordProblem(exact)).toBeNull();
    expect(newPassword.safeParse(exact).success).toBe(true);
    // The message a refused password shows states the same number.
    expect(PASSWORD_TOO_SHORT).toContain(`${PASSWORD_MIN} characters`);
  });

  it.each(["password", "12345678", "Baseball", "TRUSTNO1", "superman"])("refuses the common password %s", (pw) => {
    expect(isCommonPassword(pw)).toBe(true);
    expect(newPasswordProblem(pw)).toBe(PASSWORD_TOO_COMMON);
  });

  it("accepts passwords that are long enough and not common", () => {
    for (const pw of ["agent-secret-1", "correct horse battery", "x7Rq!vLp"]) {
      expect(isCommonPassword(pw)).toBe(false);
      expect(newPasswordProblem(pw)).toBeNull();
    }
  });
});

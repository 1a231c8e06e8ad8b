import { type Ref, useState } from "react";
import { Field, type FieldProps } from "../../../ui/input";
import { PASSWORD_HINT } from "../password-rule";

/** A field's wiring from its form (react-hook-form's `fieldProps`, or a plain form's value and message). */
type PasswordInput = Omit<FieldProps, "label" | "type" | "autoComplete" | "hint" | "trailing"> & {
  ref?: Ref<HTMLInputElement>;
};

/**
 * New password + confirmation with one show/hide toggle (the Change Password dialog and the partner
 * invitation). It knows no form library: each form hands in its fields' wiring.
 */
export function NewPasswordFields({
  password,
  confirmPassword,
}: {
  password: PasswordInput;
  confirmPassword: PasswordInput;
}) {
  const [visible, setVisible] = useState(false);
  const toggle = (
    <button
      type="button"
      onClick={() => setVisible((v) => !v)}
      className="rounded px-2 py-1 text-xs font-semibold text-brand-700 hover:bg-brand-50"
      aria-pressed={visible}
    >
      {visible ? "Hide" : "Show"}
    </button>
  );
  return (
    <>
      <Field
        label="New Password"
        type={visible ? "text" : "password"}
        autoComplete="new-password"
        hint={PASSWORD_HINT}
        trailing={toggle}
        {...password}
      />
      <Field
        label="Confirm Password"
        type={visible ? "text" : "password"}
        autoComplete="new-password"
        {...confirmPassword}
      />
    </>
  );
}

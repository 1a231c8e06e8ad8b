import { useState } from "react";
import type { UseFormReturn } from "react-hook-form";
import { PASSWORD_HINT } from "../../features/accounts/password-rule";
import type { NewPasswordForm } from "../../features/accounts/schemas/auth";
import { fieldProps } from "../../ui/form";
import { Field } from "../../ui/input";

/** New password + confirmation with one show/hide toggle (reset page and Change Password dialog). */
export function NewPasswordFields({ form }: { form: UseFormReturn<NewPasswordForm> }) {
  const [visible, setVisible] = useState(false);
  const { errors } = form.formState;
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
        error={errors.password?.message}
        hint={PASSWORD_HINT}
        trailing={toggle}
        {...form.register("password")}
      />
      <Field
        label="Confirm Password"
        type={visible ? "text" : "password"}
        autoComplete="new-password"
        {...fieldProps(form, "confirmPassword")}
      />
    </>
  );
}

import { type ButtonHTMLAttributes, forwardRef } from "react";
import { useAwaitingHydration } from "./hydrated";
import { Spinner } from "./spinner";
import { type ButtonSize, type ButtonVariant, buttonClass } from "./styles";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner and disables the button. */
  busy?: boolean;
}

/**
 * A button. In an island, one that only acts through JavaScript (`type="button"`) is disabled in the server's
 * HTML until React has hydrated it, so it never does nothing when pressed (decision 0009); submit buttons sit
 * in a form whose fields wait the same way (src/ui/form.tsx).
 */

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = "primary", size = "md", busy = false, className = "", disabled, children, type = "button", ...rest },
  ref,
) {
  const waiting = useAwaitingHydration();
  return (
    <button
      ref={ref}
      type={type}
      className={buttonClass(variant, size, className)}
      disabled={disabled || busy || (type === "button" && waiting)}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy && <Spinner className="h-4 w-4" />}
      {children}
    </button>
  );
});

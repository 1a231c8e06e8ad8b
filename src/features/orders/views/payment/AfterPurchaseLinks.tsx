import { buttonClass } from "../../../../ui/styles";

/**
 * The ways on from a purchase's end page: 'Go to your dashboard' for a signed-in buyer, 'Login to Your
 * Account' for one who has an account to log in to, and 'Return to Home'.
 */
export function AfterPurchaseLinks({ reader }: { reader: "signed-in" | "has-account" | "no-account" }) {
  return (
    <div className="mt-8 flex flex-wrap justify-center gap-3">
      {reader === "signed-in" ? (
        <a href="/dashboard" className={buttonClass("primary")}>
          Go to your dashboard
        </a>
      ) : reader === "has-account" ? (
        <a href="/login" className={buttonClass("primary")}>
          Login to Your Account
        </a>
      ) : null}
      <a href="/" className={buttonClass(reader === "no-account" ? "primary" : "secondary")}>
        Return to Home
      </a>
    </div>
  );
}

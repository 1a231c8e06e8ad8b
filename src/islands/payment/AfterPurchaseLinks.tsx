import { buttonClass } from "../../ui/styles";

/** 'Login to Your Account' and 'Return to Home', the two ways on from a purchase's end page. */
export function AfterPurchaseLinks() {
  return (
    <div className="mt-8 flex flex-wrap justify-center gap-3">
      <a href="/login" className={buttonClass("primary")}>
        Login to Your Account
      </a>
      <a href="/" className={buttonClass("secondary")}>
        Return to Home
      </a>
    </div>
  );
}

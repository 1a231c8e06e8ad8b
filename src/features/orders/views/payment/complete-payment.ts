/** What happens after a card payment: the spec's toasts, and the return URL with Stripe's own parameters. */
import type { PaymentStart } from "../../../../domain/schemas/payments";
import { api, call } from "../../../../lib/api";
import { toast } from "../../../../ui/toast";

export interface PaymentOutcome {
  /** Where the buyer returns, a path of this site (may carry our own parameters, such as the order id). */
  returnUrl: string;
  successDescription: string;
  /** Given when the page itself goes on after paying (no redirect, no default toast). */
  onPaid?: () => void;
}

/** What every card form receives from the PaymentCard. */
export interface PaymentFormProps {
  payment: PaymentStart;
  outcome: PaymentOutcome;
  submitLabel: string;
}

export function paymentSucceeded(outcome: PaymentOutcome, paymentIntentId: string, clientSecret: string): void {
  if (outcome.onPaid) {
    outcome.onPaid();
    return;
  }
  toast({ title: "Payment Successful", description: outcome.successDescription, variant: "success" });
  const url = returnUrlOf(outcome);
  url.searchParams.set("payment_intent", paymentIntentId);
  url.searchParams.set("payment_intent_client_secret", clientSecret);
  url.searchParams.set("redirect_status", "succeeded");
  // Leave the toast on screen for a moment before the provider-style redirect.
  setTimeout(() => window.location.assign(url), 800);
}

/** The return URL made absolute in the browser (pages render on the server, where there is no location). */
export const returnUrlOf = (outcome: PaymentOutcome) => new URL(outcome.returnUrl, window.location.origin);

export function paymentFailed(message: string | undefined): void {
  toast({ title: "Payment Failed", description: message || "Payment failed", variant: "destructive" });
}

/** Something other than the provider refusing the card (network, bug): 'Payment Error' (product rule 50). */
export function paymentError(): void {
  toast({ title: "Payment Error", description: "Something went wrong. Please try again.", variant: "destructive" });
}

/**
 * The status query of the order a return page shows (`?order=`), carrying the payment's client secret
 * from the return URL: the server answers only the order's owner or the holder of that secret.
 * Not `enabled` when the page names no order.
 */
export function orderStatusQuery(params: URLSearchParams) {
  const orderId = params.get("order");
  const secret = params.get("payment_intent_client_secret");
  const request = {
    param: { orderId: encodeURIComponent(orderId ?? "") },
    query: secret ? { client_secret: secret } : {},
  };
  return {
    queryKey: ["/api/orders/status", orderId, secret],
    queryFn: () => call(api.orders[":orderId"].status.$get(request)),
    enabled: Boolean(orderId),
  };
}

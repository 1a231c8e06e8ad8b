/** The one payment card every checkout uses: a hint before payment is prepared, then the card form. */
import { lazy, type ReactNode, Suspense, useEffect, useRef } from "react";
import type { PaymentStart } from "../../../../domain/schemas/payments";
import { Card } from "../../../../ui/card";
import { Spinner } from "../../../../ui/spinner";
import type { PaymentOutcome } from "./complete-payment";

// The card forms load when a payment exists, not with the page (decision 0032): a checkout's first screen is its summary.
const StripeCardForm = lazy(() => import("./StripeCardForm"));
const SimulatedCardForm = lazy(() => import("./SimulatedCardForm"));

const PREPARE_HINT = 'Configure your package and click "Proceed to Payment" to continue.';

interface PaymentCardProps {
  payment: PaymentStart | null;
  outcome: PaymentOutcome;
  submitLabel: string;
  /** Shown before a payment exists. */
  placeholder?: ReactNode;
  title?: string;
}

export function PaymentCard({
  payment,
  outcome,
  submitLabel,
  placeholder = PREPARE_HINT,
  title = "Payment",
}: PaymentCardProps) {
  // The card form's arrival is a new stage of the checkout: keyboard and screen-reader users land on it.
  const heading = useRef<HTMLHeadingElement>(null);
  const clientSecret = payment?.clientSecret;
  useEffect(() => {
    if (clientSecret) heading.current?.focus();
  }, [clientSecret]);
  return (
    <Card aria-labelledby="payment-card-title">
      <h2 id="payment-card-title" ref={heading} tabIndex={-1} className="text-lg font-bold">
        {title}
      </h2>
      <div className="mt-4">
        {!payment ? (
          <p className="rounded-lg border border-dashed border-line px-4 py-8 text-center text-ink-soft">
            {placeholder}
          </p>
        ) : (
          <Suspense fallback={<Spinner label="Loading payment form..." />}>
            {payment.provider === "stripe" ? (
              <StripeCardForm payment={payment} outcome={outcome} submitLabel={submitLabel} />
            ) : (
              <SimulatedCardForm payment={payment} outcome={outcome} submitLabel={submitLabel} />
            )}
          </Suspense>
        )}
      </div>
      {payment && (
        <p className="mt-4 flex items-center gap-2 text-xs text-muted">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
            <path d="M10 1a5 5 0 0 0-5 5v3H4a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1v-8a1 1 0 0 0-1-1h-1V6a5 5 0 0 0-5-5zm3 8H7V6a3 3 0 1 1 6 0z" />
          </svg>
          {payment.provider === "simulated"
            ? "Simulated payments for local use and tests: no real card is charged."
            : "Card details go straight to our card provider, Stripe, over an encrypted connection."}
        </p>
      )}
    </Card>
  );
}

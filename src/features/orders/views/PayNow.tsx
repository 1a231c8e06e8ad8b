/**
 * 'Pay now' on a pending order in My Orders: the order's own payment, resumed on the
 * intent it already has, so the buyer who left a checkout (or refreshed it) can finish without ordering twice.
 */
import { useMutation } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { formatUsd } from "../../../domain/format";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { RetryNotice } from "../../../ui/retry";
import { Spinner } from "../../../ui/spinner";

/** The payment step loads with 'Pay now', not with My Orders (decision 0016), as the other dashboard payments do. */
const loadPaymentCard = () => import("./payment/PaymentCard");
const PaymentCard = lazy(() => loadPaymentCard().then((m) => ({ default: m.PaymentCard })));

export function PayNow({ orderId }: { orderId: string }) {
  const payment = useMutation({
    mutationFn: () => {
      // The card's code comes while the payment is being opened.
      void loadPaymentCard();
      return call(api["my-orders"][":orderId"].payment.$post({ param: { orderId } }));
    },
  });
  if (payment.data) {
    return (
      <div className="w-full">
        <Suspense fallback={<Spinner label="Loading payment form..." />}>
          <PaymentCard
            payment={payment.data}
            submitLabel={`Complete Payment - ${formatUsd(payment.data.amountCents)}`}
            outcome={{
              returnUrl: `/thank-you?order=${orderId}`,
              successDescription: "Thank you! A confirmation e-mail is on its way.",
            }}
          />
        </Suspense>
      </div>
    );
  }
  if (payment.isError) {
    return (
      <div className="w-full">
        <RetryNotice
          message={errorMessage(payment.error, "We could not open this payment. Please try again.")}
          onRetry={() => payment.mutate()}
        />
      </div>
    );
  }
  return (
    <Button busy={payment.isPending} onClick={() => payment.mutate()}>
      Pay now
    </Button>
  );
}

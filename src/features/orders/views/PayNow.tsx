/**
 * 'Pay now' on a pending order in My Orders: the order's own payment, resumed on the
 * intent it already has, so the buyer who left a checkout (or refreshed it) can finish without ordering twice.
 */
import { formatUsd } from "../../../domain/format";
import { PaymentCard } from "../../../islands/payment/PaymentCard";
import { api, call, errorMessage } from "../../../lib/api";
import { useMutation } from "../../../lib/query";
import { Button } from "../../../ui/button";
import { RetryNotice } from "../../../ui/retry";

export function PayNow({ orderId }: { orderId: string }) {
  const payment = useMutation({
    mutationFn: () => call(api["my-orders"][":orderId"].payment.$post({ param: { orderId } })),
  });
  if (payment.data) {
    return (
      <div className="w-full">
        <PaymentCard
          payment={payment.data}
          submitLabel={`Complete Payment - ${formatUsd(payment.data.amountCents)}`}
          outcome={{
            returnUrl: `/thank-you?order=${orderId}`,
            successDescription: "Thank you! A confirmation e-mail is on its way.",
          }}
        />
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

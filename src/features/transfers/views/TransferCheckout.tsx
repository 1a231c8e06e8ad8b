/** /transfer-checkout (product rules 45, 46): resumes the pending call-transfer order kept in the browser, while the server says it is pending. */
import { formatUsd } from "../../../domain/format";
import { AppProviders } from "../../../islands/AppProviders";
import { dashboardPath } from "../../../islands/dashboard/views";
import { QueryProvider } from "../../../islands/QueryProvider";
import { Card } from "../../../ui/card";
import { useHydrated } from "../../../ui/hydrated";
import { Spinner } from "../../../ui/spinner";
import { buttonClass } from "../../../ui/styles";
import { Summary } from "../../../ui/summary";
import { PaymentCard } from "../../orders/views/index";
import { usePendingTransferOrder } from "./pending-transfer-order";

function Checkout() {
  // The store is read from localStorage after hydration and checked with the server; until then, say nothing.
  const hydrated = useHydrated();
  const { pending: order, checking } = usePendingTransferOrder();
  if (!hydrated || checking) return <Spinner label="Loading your order..." />;

  if (!order) {
    return (
      <Card className="mx-auto max-w-lg text-center">
        <h1 className="text-2xl font-bold">No Order Found</h1>
        <p className="mt-2 text-ink-soft">Please start your order from the dashboard.</p>
        <a href={dashboardPath("call-transfers")} className={buttonClass("primary", "md", "mt-6")}>
          Back to Dashboard
        </a>
      </Card>
    );
  }

  const total = formatUsd(order.payment.amountCents);
  return (
    <div className="grid gap-8 lg:grid-cols-2">
      <Card>
        <h1 className="text-2xl font-bold">Transfer Order</h1>
        <div className="mt-4">
          <Summary
            rows={[
              { label: "Total transfers", value: order.transferDetails.totalTransfers },
              { label: "Transfers per day", value: order.transferDetails.transfersPerDay },
              { label: "States", value: order.transferDetails.states.join(", ") },
            ]}
            total={total}
          />
        </div>
      </Card>
      {order.clientSecret ? (
        <PaymentCard
          payment={order.payment}
          submitLabel={`Complete Payment - ${total}`}
          outcome={{
            returnUrl: `/thank-you?order=${order.payment.orderId}`,
            successDescription: "Thank you! A confirmation e-mail is on its way.",
          }}
        />
      ) : (
        <Spinner label="Preparing payment..." />
      )}
    </div>
  );
}

export default function TransferCheckout() {
  return (
    <QueryProvider>
      <AppProviders>
        <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
          <Checkout />
        </div>
      </AppProviders>
    </QueryProvider>
  );
}

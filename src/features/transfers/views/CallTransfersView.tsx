/** Buy Call Transfers (product rules 45, 46): info → form → card payment; the pending order is kept for /transfer-checkout. */
import { lazy, Suspense, useEffect, useState } from "react";
import { formatUsd } from "../../../domain/format";
import type { CallTransferForm } from "../../../domain/schemas/dashboard";
import { $pendingTransferOrder } from "../../../lib/stores";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { CheckList } from "../../../ui/check-list";
import { Spinner } from "../../../ui/spinner";
import { CALL_TRANSFER_UNIT_CENTS } from "../../orders/index";
import { PaymentCard } from "../../orders/views/index";
import { TRANSFER_BUFFER_SECONDS } from "../transfers";
import { usePendingTransferOrder } from "./pending-transfer-order";

// The order form (and its form library) loads when the buyer starts an order (decision 0032).
const CallTransferOrderForm = lazy(() => import("./CallTransferOrderForm"));

const BENEFITS = [
  "Pre-screened, warmed final-expense prospects",
  "Transferred live to the number you choose",
  `Only calls longer than ${TRANSFER_BUFFER_SECONDS} seconds are charged`,
  "Delivered in the states and hours you set",
];

export function CallTransfersView() {
  const { pending, checking } = usePendingTransferOrder();
  const [stage, setStage] = useState<"info" | "form">("info");
  // What the buyer last ordered: 'Back to Form' shows it again.
  const [ordered, setOrdered] = useState<CallTransferForm | undefined>();
  // The pending order lives in this browser's storage, read once the page has hydrated and checked with the
  // server: while it still waits for payment, it opens the payment stage.
  useEffect(() => {
    if (pending) setStage("form");
  }, [pending]);

  if (checking) return <Spinner label="Loading your order..." />;

  if (stage === "info") {
    return (
      <section aria-labelledby="transfers-title" className="space-y-5">
        <h2 id="transfers-title" className="text-2xl font-bold">
          Buy Call Transfers
        </h2>
        <Card className="space-y-4">
          <p className="text-lg">
            Live final-expense transfers at <strong>{formatUsd(CALL_TRANSFER_UNIT_CENTS)}</strong> per transfer.
          </p>
          <CheckList items={BENEFITS} />
          <Button size="lg" onClick={() => setStage("form")}>
            Start an Order
          </Button>
        </Card>
      </section>
    );
  }

  if (pending) {
    return (
      <section aria-labelledby="transfers-title" className="space-y-5">
        <h2 id="transfers-title" className="text-2xl font-bold">
          Pay for your transfers
        </h2>
        <p className="text-ink-soft">
          {pending.transferDetails.totalTransfers} transfers, {pending.transferDetails.transfersPerDay} per day, in{" "}
          {pending.transferDetails.states.join(", ")}.{" "}
          <a className="text-brand-700 underline" href="/transfer-checkout">
            Pay on a separate page
          </a>
        </p>
        <PaymentCard
          payment={pending.payment}
          submitLabel={`Complete Payment - ${formatUsd(pending.payment.amountCents)}`}
          outcome={{
            returnUrl: `/thank-you?order=${pending.payment.orderId}`,
            successDescription: "Thank you! A confirmation e-mail is on its way.",
          }}
        />
        <Button variant="secondary" onClick={() => $pendingTransferOrder.set(undefined)}>
          Back to Form
        </Button>
      </section>
    );
  }

  return (
    <Suspense fallback={<Spinner label="Loading the order form..." />}>
      <CallTransferOrderForm defaultValues={ordered} onOrdered={setOrdered} onBack={() => setStage("info")} />
    </Suspense>
  );
}

/** The pricing checkouts' return page (product rule 44): 3 s of confetti and the order's real status from the server. */

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { site } from "../../../config/site";
import { formatUsd } from "../../../domain/format";
import { AppProviders } from "../../../islands/AppProviders";
import { QueryProvider } from "../../../islands/QueryProvider";
import { celebrateFor } from "../../../scripts/confetti";
import { Card } from "../../../ui/card";
import { Spinner } from "../../../ui/spinner";
import type { OrderStatus } from "../orders";
import { AfterPurchaseLinks } from "./payment/AfterPurchaseLinks";
import { orderStatusQuery } from "./payment/complete-payment";

const HEADLINES: Record<OrderStatus, string> = {
  paid: "Payment received",
  completed: "Payment received",
  pending: "Your payment is being processed",
  cancelled: "This order was cancelled",
  refunded: "This order was refunded",
};

const POLL_MS = 2000;
const POLL_LIMIT = 15;

interface SuccessProps {
  /** The page's query string (`?order=…&payment_intent_client_secret=…`), as the server received it. */
  search: string;
  /** Whether the reader is signed in (the page reads the session on the server). */
  signedIn: boolean;
}

/**
 * What happens next for a paid package: the delivery-setup link went by e-mail (to the address shown) while
 * the order waits for its setup; an anonymous buyer has no login yet, the link is their way in.
 */
function PaidPackage({
  quantity,
  totalCents,
  emailedTo,
}: {
  quantity: number;
  totalCents: number;
  emailedTo: string | null;
}) {
  return (
    <div className="mt-4 space-y-2 text-ink-soft" data-order-status="paid">
      <p className="text-lg font-semibold text-brand-700">{HEADLINES.paid}</p>
      <p>
        Your package of {quantity} transfers ({formatUsd(totalCents)}) is confirmed.
      </p>
      {emailedTo && (
        <p>
          We e-mailed the link to set up delivery to <strong className="text-ink">{emailedTo}</strong>. Open it to
          choose when and where your transfers ring.
        </p>
      )}
    </div>
  );
}

function Success({ search, signedIn }: SuccessProps) {
  const [statusQuery] = useState(() => orderStatusQuery(new URLSearchParams(search)));
  const order = useQuery({
    ...statusQuery,
    // The provider's confirmation may land a moment after the redirect: ask again while it is pending.
    refetchInterval: (query) =>
      query.state.data?.status === "pending" && query.state.dataUpdateCount < POLL_LIMIT ? POLL_MS : false,
  });

  useEffect(() => celebrateFor(3000), []);

  const paid = order.data?.status === "paid" || order.data?.status === "completed";
  return (
    <Card className="mx-auto max-w-xl text-center sm:p-10">
      <h1 className="text-3xl font-bold tracking-tight">Welcome aboard!</h1>
      {!statusQuery.enabled || order.isError ? (
        <p className="mt-4 text-ink-soft">
          We could not find your order. If you paid, a confirmation e-mail is on its way; contact{" "}
          <a className="text-brand-700 underline" href={`mailto:${site.supportEmail}`}>
            {site.supportEmail}
          </a>{" "}
          with any question.
        </p>
      ) : order.isPending ? (
        <div className="mt-6">
          <Spinner label="Checking your payment..." />
        </div>
      ) : paid ? (
        <PaidPackage
          quantity={order.data.quantity}
          totalCents={order.data.totalCents}
          emailedTo={order.data.deliverySetupEmailedTo}
        />
      ) : (
        <div className="mt-4 space-y-2 text-ink-soft" data-order-status={order.data.status}>
          <p className="text-lg font-semibold text-ink">{HEADLINES[order.data.status]}</p>
          {order.data.status === "pending" && (
            <p>We will e-mail you as soon as your card provider confirms the payment.</p>
          )}
        </div>
      )}
      <AfterPurchaseLinks reader={signedIn ? "signed-in" : "no-account"} />
    </Card>
  );
}

export default function OnboardingSuccess(props: SuccessProps) {
  return (
    <QueryProvider>
      <AppProviders>
        <Success {...props} />
      </AppProviders>
    </QueryProvider>
  );
}

/**
 * /thank-you (product rule 44): 'Payment Successful' (3 s of confetti) when the order is paid, otherwise
 * 'Thank You - Your order is being processed'. The order's status comes from the server.
 */

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { site } from "../../../../config/site";
import { AppProviders } from "../../../../islands/AppProviders";
import { QueryProvider } from "../../../../islands/QueryProvider";
import { forgetSettledTransferOrder } from "../../../../lib/stores";
import { celebrateFor } from "../../../../scripts/confetti";
import { Card } from "../../../../ui/card";
import { Spinner } from "../../../../ui/spinner";
import { buttonClass } from "../../../../ui/styles";
import { AfterPurchaseLinks } from "../payment/AfterPurchaseLinks";
import { orderStatusQuery } from "../payment/complete-payment";

function Support() {
  return (
    <p className="mt-6 text-sm text-ink-soft">
      Questions? Write to{" "}
      <a className="font-medium text-brand-700 underline" href={`mailto:${site.supportEmail}`}>
        {site.supportEmail}
      </a>
      .
    </p>
  );
}

/**
 * A signed-in buyer's order came from the dashboard (or a wizard) with its delivery already set up: they
 * are sent to their dashboard, not told to wait for a call or to log in.
 */
function Paid({ signedIn }: { signedIn: boolean }) {
  useEffect(() => celebrateFor(3000), []);
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight text-brand-700">Payment Successful</h1>
      {signedIn ? (
        <>
          <p className="mt-4 text-ink-soft">
            Thank you for your order. A confirmation e-mail is on its way; your dashboard shows the order and its
            transfers.
          </p>
          <a href="/dashboard" className={buttonClass("primary", "md", "mt-8")}>
            Go to your dashboard
          </a>
        </>
      ) : (
        <>
          <p className="mt-4 text-ink-soft">
            Thank you for your order. A confirmation e-mail is on its way, and we will call you {site.supportWindow} to
            set up your transfers.
          </p>
          <a href="/login" className={buttonClass("primary", "md", "mt-8")}>
            Login to Your Account
          </a>
        </>
      )}
    </>
  );
}

function Processing({ signedIn }: { signedIn: boolean }) {
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight">Thank You - Your order is being processed</h1>
      <p className="mt-4 text-ink-soft">
        We will e-mail you as soon as your payment is confirmed. You can follow your order from your account.
      </p>
      <AfterPurchaseLinks reader={signedIn ? "signed-in" : "has-account"} />
    </>
  );
}

interface ThankYouProps {
  /** The page's query string (`?order=…`, or Stripe's `redirect_status`), as the server received it. */
  search: string;
  /** Whether the reader is signed in (the page reads the session on the server). */
  signedIn: boolean;
}

function ThankYouCard({ search, signedIn }: ThankYouProps) {
  const [params] = useState(() => new URLSearchParams(search));
  const statusQuery = orderStatusQuery(params);
  const order = useQuery({
    ...statusQuery,
    refetchInterval: (query) =>
      query.state.data?.status === "pending" && query.state.dataUpdateCount < 10 ? 2000 : false,
  });
  const waiting = statusQuery.enabled && order.isPending;
  const paid = statusQuery.enabled
    ? order.data?.status === "paid" || order.data?.status === "completed"
    : params.get("redirect_status") === "succeeded";
  const paidOrderId = paid ? order.data?.id : undefined;
  // The order is settled: this browser's copy of it as a pending transfer order goes.
  useEffect(() => {
    if (paidOrderId) forgetSettledTransferOrder(paidOrderId);
  }, [paidOrderId]);

  return (
    <Card className="mx-auto max-w-xl text-center sm:p-10">
      {waiting ? (
        <Spinner label="Checking your payment..." />
      ) : paid ? (
        <Paid signedIn={signedIn} />
      ) : (
        <Processing signedIn={signedIn} />
      )}
      <Support />
    </Card>
  );
}

export default function ThankYou(props: ThankYouProps) {
  return (
    <QueryProvider>
      <AppProviders>
        <ThankYouCard {...props} />
      </AppProviders>
    </QueryProvider>
  );
}

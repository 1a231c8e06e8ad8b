/**
 * /ringcloud-checkout (product rules 44, 49): the package chosen in the ringcloud wizard, from the query string. The
 * query's amount is only shown; 'Complete Purchase' asks the server, which prices the order itself.
 */

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { formatUsd } from "../../../../domain/format";
import type { PaymentStart } from "../../../../domain/schemas/payments";
import { AppProviders } from "../../../../islands/AppProviders";
import { QueryProvider } from "../../../../islands/QueryProvider";
import { api, call, errorMessage } from "../../../../lib/api";
import { Button } from "../../../../ui/button";
import { Card } from "../../../../ui/card";
import { CheckList } from "../../../../ui/check-list";
import { RetryNotice } from "../../../../ui/retry";
import { Spinner } from "../../../../ui/spinner";
import { buttonClass } from "../../../../ui/styles";
import { Summary } from "../../../../ui/summary";
import { toast } from "../../../../ui/toast";
import { AGE_RANGES, type AgeRange, dollarsToCents, RINGCLOUD_LEAD_TYPES, type RingcloudLeadType } from "../../pricing";
import { PaymentCard } from "../payment/PaymentCard";
import { RINGCLOUD_PACKAGES } from "./ringcloud-packages";

const INCLUSIONS = ["Premium insurance leads", "TCPA compliant leads", "Real-time delivery", "Dedicated support"];

interface PackageDetails {
  amount: number;
  calls: number;
  packageType: RingcloudLeadType;
  pricePerUnit: number;
  ageRange?: AgeRange;
  survey?: string;
}

/** Null unless amount, calls and packageType are present and positive (spec: otherwise 'Loading package details...'). */
function readPackage(search: string): PackageDetails | null {
  const params = new URLSearchParams(search);
  const amount = Number(params.get("amount"));
  const calls = Number(params.get("calls"));
  const packageType = params.get("packageType") as RingcloudLeadType | null;
  if (!(amount > 0) || !(calls > 0) || !packageType || !RINGCLOUD_LEAD_TYPES.includes(packageType)) return null;
  const ageRange = params.get("ageRange") as AgeRange | null;
  const survey = params.get("survey");
  return {
    amount,
    calls: Math.trunc(calls),
    packageType,
    pricePerUnit: Number(params.get("pricePerUnit")) || amount / calls,
    ...(ageRange && AGE_RANGES.includes(ageRange) ? { ageRange } : {}),
    ...(survey ? { survey } : {}),
  };
}

/** The query carries dollars; display goes through the one money formatter. */
const money = (dollars: number) => formatUsd(dollarsToCents(dollars) ?? 0);

interface CheckoutProps {
  /** The page's query string (the package chosen in the wizard), as the server received it. */
  search: string;
}

function Checkout({ search }: CheckoutProps) {
  const [details] = useState(() => readPackage(search));
  const [payment, setPayment] = useState<PaymentStart | null>(null);
  const purchase = useMutation({
    mutationFn: (pkg: PackageDetails) =>
      call(
        api["create-payment-intent"].$post({
          json: {
            amount: pkg.amount,
            tier: "ringcloud",
            packageType: pkg.packageType,
            quantity: pkg.calls,
            ...(pkg.ageRange ? { ageRange: pkg.ageRange } : {}),
            ...(pkg.survey ? { surveyId: pkg.survey } : {}),
          },
        }),
      ),
    onSuccess: (start) => {
      if (!start.clientSecret) return;
      toast({ title: "Redirecting to Payment", description: "Enter your card details to finish.", variant: "success" });
      setPayment(start);
    },
    onError: (error) =>
      toast({
        title: "Payment Failed",
        description: errorMessage(error, "Please try again or contact support."),
        variant: "destructive",
      }),
  });
  // 'Back to Survey' resumes the saved survey (same account), never a fresh sign-up.
  const surveyHref = details?.survey ? `/ringcloud?survey=${encodeURIComponent(details.survey)}` : "/ringcloud";

  if (!details) {
    return (
      <div className="py-24 text-center">
        <Spinner label="Loading package details..." />
        <p className="mt-6">
          <a href={surveyHref} className="text-brand-700 underline">
            Back to Survey
          </a>
        </p>
      </div>
    );
  }

  const pkg = RINGCLOUD_PACKAGES[details.packageType];
  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-2">
      <Card className="space-y-5">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">{pkg.name}</h1>
          <p className="mt-1 text-ink-soft">{pkg.description}</p>
        </div>
        <div>
          <h2 className="text-sm font-semibold">What's included</h2>
          <CheckList items={INCLUSIONS} className="mt-2 text-sm" />
        </div>
        <Summary
          rows={[
            { label: "Quantity", value: details.calls },
            { label: "Price per unit", value: money(details.pricePerUnit) },
          ]}
          total={money(details.amount)}
        />
        {purchase.isError && (
          <RetryNotice
            message={errorMessage(purchase.error, "We could not prepare the payment. Please try again.")}
            busy={purchase.isPending}
            onRetry={() => purchase.mutate(details)}
          />
        )}
        <div className="flex flex-wrap gap-3">
          <Button
            size="lg"
            busy={purchase.isPending}
            disabled={payment !== null}
            onClick={() => purchase.mutate(details)}
          >
            {purchase.isPending ? "Preparing Payment..." : "Complete Purchase"}
          </Button>
          <a href={surveyHref} className={buttonClass("secondary", "lg")}>
            Back to Survey
          </a>
        </div>
      </Card>
      {payment && (
        <PaymentCard
          payment={payment}
          submitLabel={`Complete Payment - ${formatUsd(payment.amountCents)}`}
          outcome={{
            returnUrl: `/thank-you?order=${payment.orderId}`,
            successDescription: "Thank you for your purchase! A confirmation e-mail is on its way.",
          }}
        />
      )}
    </div>
  );
}

export default function RingcloudCheckout(props: CheckoutProps) {
  return (
    <QueryProvider>
      <AppProviders>
        <Checkout {...props} />
      </AppProviders>
    </QueryProvider>
  );
}

/**
 * The five pricing-page checkouts (product rules 4, 44, 47): configure a transfer package,
 * then pay on the payment card. Prices come from the shared pricing module; the server re-prices.
 */

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { isEmailAddress } from "../../../domain/email";
import { formatUsd } from "../../../domain/format";
import type { PaymentStart } from "../../../domain/schemas/payments";
import type { PublicUser } from "../../../domain/user";
import { AppProviders } from "../../../islands/AppProviders";
import { QueryProvider } from "../../../islands/QueryProvider";
import { api, call, errorMessage } from "../../../lib/api";
import { $highVolumeData, $projectedTransfers } from "../../../lib/stores";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { useHydrated } from "../../../ui/hydrated";
import { Field } from "../../../ui/input";
import { Summary } from "../../../ui/summary";
import {
  HIGH_VOLUME_TIERS,
  highVolumeTierLabel,
  PACKAGE_RULES,
  type PackageContext,
  packageUnitCents,
  parseCount,
  quotePackage,
} from "../pricing";
import { PaymentCard } from "./payment/PaymentCard";

interface CheckoutCopy {
  /** The checkout's own page (a login from it comes back here). */
  path: string;
  title: string;
  intro: string;
  successDescription: string;
}

const COPY: Record<PackageContext, CheckoutCopy> = {
  special: {
    path: "/checkout",
    title: "Customize Your Package",
    intro: "Choose how many qualified transfers you want at your special rate.",
    successDescription: "Thank you for your purchase! We'll be in touch soon.",
  },
  "high-volume": {
    path: "/checkout-high-volume",
    title: "High-Volume Package Checkout",
    intro: "The more transfers you buy, the lower the rate per transfer.",
    successDescription: "Thank you for your purchase!",
  },
  premium: {
    path: "/checkout-premium",
    title: "Premium Volume Package",
    intro: "Premium volume pricing for agencies taking 151-199 calls a day.",
    successDescription: "Thank you for your purchase! We'll be in touch soon.",
  },
  enterprise: {
    path: "/checkout-enterprise",
    title: "Enterprise Volume Package",
    intro: "Enterprise pricing with a dedicated account manager.",
    successDescription: "Thank you for your purchase! We'll be in touch soon.",
  },
  ultimate: {
    path: "/checkout-ultimate",
    title: "Ultimate Volume Package",
    intro: "Our best rate for agencies taking 300 or more calls a day.",
    successDescription: "Thank you for your purchase! We'll be in touch soon.",
  },
};

const EMAIL_MESSAGE = "Please enter a valid email address";

/** Spec §9: stored checkout hints are removed 1000 ms after a checkout screen loads. */
const HINT_LIFETIME_MS = 1000;

function initialCount(context: PackageContext): number {
  const rule = PACKAGE_RULES[context];
  const highVolume = context === "high-volume" ? $highVolumeData.get()?.volume : undefined;
  const projected = highVolume ?? $projectedTransfers.get();
  const count = projected === undefined ? rule.defaultCount : parseCount(projected, rule.defaultCount);
  return count > 0 ? count : rule.defaultCount;
}

function rangeHint(context: PackageContext): string {
  const rule = PACKAGE_RULES[context];
  if (context === "high-volume") return `Minimum: ${rule.min} transfers`;
  return `Minimum: ${rule.min} transfer, Maximum: ${rule.max} transfers`;
}

interface CheckoutProps {
  context: PackageContext;
  /** Who is signed in, as the server read it from the session: a signed-in buyer's receipt goes to their e-mail. */
  user: PublicUser | null;
}

function Checkout({ context, user }: CheckoutProps) {
  const rule = PACKAGE_RULES[context];
  const copy = COPY[context];
  const [countInput, setCountInput] = useState(String(rule.defaultCount));
  const [email, setEmail] = useState("");
  const [payment, setPayment] = useState<PaymentStart | null>(null);

  useEffect(() => {
    setCountInput(String(initialCount(context)));
    const timer = setTimeout(() => {
      $projectedTransfers.set(undefined);
      $highVolumeData.set(undefined);
    }, HINT_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [context]);

  const hydrated = useHydrated();
  const count = parseCount(countInput, rule.nonNumericCount);
  const unitCents = packageUnitCents(context, Math.max(count, 0));
  const totalCents = Math.max(count, 0) * unitCents;
  const priced = quotePackage(context, count);
  const needsEmail = !user;
  const emailValid = isEmailAddress(email);

  const prepare = useMutation({
    mutationFn: () =>
      call(
        api["create-payment-intent"].$post({
          json: {
            amount: totalCents / 100,
            callCount: count,
            ...(context === "special" ? {} : { tier: context }),
            ...(needsEmail ? { email: email.trim() } : {}),
          },
        }),
      ),
    onSuccess: setPayment,
    // Spec §8: a failed payment setup on these checkouts is logged; the card says it plainly.
    onError: (error) => console.error("Payment intent creation failed", error),
  });

  function changeCount(value: string) {
    setCountInput(value);
    // A prepared payment is for the old count: configure again.
    setPayment(null);
    prepare.reset();
  }

  const canProceed = hydrated && priced.ok && (!needsEmail || emailValid) && !prepare.isPending && !payment;
  const total = formatUsd(totalCents);

  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-2">
      <div className="space-y-6">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">{copy.title}</h1>
          <p className="mt-2 text-ink-soft">{copy.intro}</p>
        </div>

        {/* Until React has hydrated, typing would be lost: the fields wait for it (decision 0009). */}
        <fieldset disabled={!hydrated} className="min-w-0">
          <Card className="space-y-5">
            <Field
              label="Number of transfers"
              type="number"
              inputMode="numeric"
              min={rule.min}
              {...(context === "high-volume" ? {} : { max: rule.max })}
              value={countInput}
              onChange={(e) => changeCount(e.target.value)}
              hint={rangeHint(context)}
              error={priced.ok ? undefined : priced.message}
            />

            {context === "high-volume" && (
              <div>
                <p className="text-sm font-medium text-ink">Volume tiers</p>
                <ul className="mt-2 grid gap-2 sm:grid-cols-2">
                  {HIGH_VOLUME_TIERS.map((tier) => {
                    const label = highVolumeTierLabel(tier.from);
                    const active = count >= tier.from && (tier.to === null || count <= tier.to);
                    return (
                      <li
                        key={tier.from}
                        aria-current={active || undefined}
                        className={`rounded-lg border px-3 py-2 text-sm ${active ? "border-brand-600 bg-brand-50 font-semibold text-ink" : "border-line text-ink-soft"}`}
                      >
                        {label}
                      </li>
                    );
                  })}
                </ul>
                <p className="mt-3 text-sm text-ink-soft">
                  Your tier: <strong className="text-ink">{highVolumeTierLabel(Math.max(count, rule.min))}</strong>
                </p>
              </div>
            )}

            {needsEmail && (
              <Field
                label="Email for your receipt"
                type="email"
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                error={email !== "" && !emailValid ? EMAIL_MESSAGE : undefined}
                hint={
                  <>
                    Already a customer?{" "}
                    <a className="text-brand-700 underline" href={`/login?next=${encodeURIComponent(copy.path)}`}>
                      Log in
                    </a>{" "}
                    to add this order to your account.
                  </>
                }
              />
            )}
          </Card>
        </fieldset>

        <Card aria-labelledby="order-summary-title">
          <h2 id="order-summary-title" className="text-lg font-bold">
            Order Summary
          </h2>
          <div className="mt-4">
            <Summary
              rows={[
                { label: "Transfers", value: Math.max(count, 0) },
                { label: "Rate per transfer", value: formatUsd(unitCents) },
              ]}
              total={total}
              totalTestId="order-total"
            />
          </div>
          <Button
            size="lg"
            className="mt-5 w-full"
            disabled={!canProceed}
            busy={prepare.isPending}
            onClick={() => prepare.mutate()}
          >
            {prepare.isPending ? "Preparing Payment..." : "Proceed to Payment"}
          </Button>
          {priced.ok && needsEmail && !emailValid && (
            <p className="mt-2 text-center text-sm text-muted">Enter the e-mail for your receipt to continue.</p>
          )}
        </Card>
      </div>

      <div>
        <PaymentCard
          payment={payment}
          submitLabel={`Complete Payment - ${total}`}
          outcome={{
            returnUrl: `/onboarding-success?order=${payment?.orderId ?? ""}`,
            successDescription: copy.successDescription,
          }}
          placeholder={
            prepare.isError ? (
              <span role="alert">
                {errorMessage(prepare.error, "We could not prepare your payment. Check your package and try again.")}
              </span>
            ) : undefined
          }
        />
      </div>
    </div>
  );
}

export default function PackageCheckout(props: CheckoutProps) {
  return (
    <QueryProvider>
      <AppProviders>
        <Checkout {...props} />
      </AppProviders>
    </QueryProvider>
  );
}

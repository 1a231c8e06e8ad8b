/**
 * The simulated provider's card form (product rule 9): the fields of Stripe's card form, Stripe's test numbers,
 * confirmation through the server's provider path.
 */

import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { QueryProvider } from "../../../../islands/QueryProvider";
import { ApiError, api, call, errorMessage } from "../../../../lib/api";
import { Button } from "../../../../ui/button";
import { Field } from "../../../../ui/input";
import { cardInGroups, SUCCEEDING_CARD } from "../../orders";
import { type PaymentFormProps, paymentError, paymentFailed, paymentSucceeded } from "./complete-payment";

const groupCardNumber = (value: string) => cardInGroups(value.replace(/\D/g, "").slice(0, 19));

function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

/**
 * Brings the page's query client (decision 0074): the form also shows in islands that hold no server data
 * of their own (the survey's and ringcloud's payment steps), which therefore do not load the library up front.
 */
export default function SimulatedCardForm(props: PaymentFormProps) {
  return (
    <QueryProvider>
      <CardForm {...props} />
    </QueryProvider>
  );
}

function CardForm({ payment, outcome, submitLabel }: PaymentFormProps) {
  const [ready, setReady] = useState(false);
  const [card, setCard] = useState({ cardNumber: "", expiry: "", cvc: "" });
  useEffect(() => setReady(true), []);

  const confirm = useMutation({
    mutationFn: () =>
      call(api["simulated-payments"].confirm.$post({ json: { clientSecret: payment.clientSecret, ...card } })),
    onSuccess: ({ paymentIntentId }) => paymentSucceeded(outcome, paymentIntentId, payment.clientSecret),
    onError: (error) =>
      error instanceof ApiError ? paymentFailed(errorMessage(error, "Failed to process payment")) : paymentError(),
  });
  const busy = confirm.isPending || confirm.isSuccess;

  return (
    <form
      method="post"
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready && !busy) confirm.mutate();
      }}
    >
      <p className="rounded-lg bg-surface px-3 py-2 text-sm text-ink-soft">
        Test mode: pay with <strong className="text-ink">{cardInGroups(SUCCEEDING_CARD)}</strong>, any future date and
        any CVC.
      </p>
      <Field
        label="Card number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 1234 1234 1234"
        value={card.cardNumber}
        onChange={(e) => setCard({ ...card, cardNumber: groupCardNumber(e.target.value) })}
      />
      <div className="grid grid-cols-2 gap-4">
        <Field
          label="Expiration (MM / YY)"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          value={card.expiry}
          onChange={(e) => setCard({ ...card, expiry: formatExpiry(e.target.value) })}
        />
        <Field
          label="CVC"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="CVC"
          maxLength={4}
          value={card.cvc}
          onChange={(e) => setCard({ ...card, cvc: e.target.value.replace(/\D/g, "") })}
        />
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={!ready} busy={busy}>
        {busy ? "Processing..." : submitLabel}
      </Button>
    </form>
  );
}

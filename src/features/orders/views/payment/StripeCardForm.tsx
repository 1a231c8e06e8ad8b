/** Stripe's Payment Element, used when the server answers with provider "stripe" and a publishable key. */
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
import { loadStripe, type Stripe } from "@stripe/stripe-js";
import { useState } from "react";
import { Button } from "../../../../ui/button";
import { type PaymentFormProps, paymentError, paymentFailed, paymentSucceeded, returnUrlOf } from "./complete-payment";

const stripeByKey = new Map<string, Promise<Stripe | null>>();

function StripeForm({ payment, outcome, submitLabel }: PaymentFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [elementReady, setElementReady] = useState(false);
  const [processing, setProcessing] = useState(false);

  async function submit() {
    if (!stripe || !elements) return;
    setProcessing(true);
    try {
      const { error, paymentIntent } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: returnUrlOf(outcome).href },
        redirect: "if_required",
      });
      if (error) paymentFailed(error.message);
      else if (paymentIntent) paymentSucceeded(outcome, paymentIntent.id, payment.clientSecret);
    } catch {
      paymentError();
    } finally {
      setProcessing(false);
    }
  }

  return (
    <form
      method="post"
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <PaymentElement onReady={() => setElementReady(true)} />
      <Button type="submit" size="lg" className="w-full" disabled={!stripe || !elementReady} busy={processing}>
        {processing ? "Processing..." : submitLabel}
      </Button>
    </form>
  );
}

export default function StripeCardForm(props: PaymentFormProps) {
  const key = props.payment.publishableKey ?? "";
  if (!stripeByKey.has(key)) stripeByKey.set(key, loadStripe(key));
  return (
    <Elements stripe={stripeByKey.get(key) ?? null} options={{ clientSecret: props.payment.clientSecret }}>
      <StripeForm {...props} />
    </Elements>
  );
}

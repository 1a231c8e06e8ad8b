// @ts-nocheck: a plain script for the browser, served as Stripe.js; Stripe's types describe the real one.
/*
 * A local stand-in for Stripe.js, served by the browser tests in place of https://js.stripe.com/… (no
 * network). It offers what the shop's real card path uses through @stripe/react-stripe-js: the `Stripe`
 * function, `elements({ clientSecret })`, a Payment Element (a card-number field standing in for Stripe's
 * iframe, "ready" once mounted) and `confirmPayment`. Stripe's servers are played by the shop's own
 * simulated provider (POST /api/simulated-payments/confirm), which settles the order as Stripe's webhook
 * would. Cards: 4000 0000 0000 0002 is declined; 4000 0025 0000 3155 asks for authentication, which
 * Stripe does by leaving the page and coming back to `return_url` with its parameters; any other number
 * is passed on as typed.
 */
(() => {
  const AUTHENTICATION_CARD = "4000002500003155";
  const SUCCEEDING_CARD = "4242424242424242";

  function createStripe(publishableKey) {
    const seen = { publishableKey, clientSecret: null, elements: [] };
    window.__stripeStandIn = seen;
    let field = null;
    const listeners = new Map();
    const emit = (event, payload) => {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    };

    const paymentElement = {
      mount(target) {
        const node = typeof target === "string" ? document.querySelector(target) : target;
        node.innerHTML =
          '<label style="display:block">Card number (Stripe stand-in)' +
          '<input name="stand-in-card" inputmode="numeric" autocomplete="cc-number" style="display:block"></label>';
        field = node.querySelector("input");
        setTimeout(() => emit("ready", paymentElement));
      },
      on(event, listener) {
        listeners.set(event, [...(listeners.get(event) ?? []), listener]);
        return paymentElement;
      },
      off(event, listener) {
        listeners.set(
          event,
          (listeners.get(event) ?? []).filter((known) => known !== listener),
        );
        return paymentElement;
      },
      update() {},
      unmount() {},
      destroy() {
        field = null;
      },
    };

    const elements = {
      create(type) {
        seen.elements.push(type);
        if (type !== "payment") throw new Error(`The stand-in has no ${type} element`);
        return paymentElement;
      },
      getElement: () => paymentElement,
      update() {},
      submit: async () => ({}),
    };

    /** What Stripe's servers would answer, from the shop's simulated provider. */
    async function settle(cardNumber) {
      const response = await fetch("/api/simulated-payments/confirm", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ clientSecret: seen.clientSecret, cardNumber, expiry: "12 / 34", cvc: "123" }),
      });
      return { ok: response.ok, body: await response.json() };
    }

    return {
      elements(options) {
        seen.clientSecret = options?.clientSecret ?? null;
        return elements;
      },
      async confirmPayment({ confirmParams, redirect }) {
        const card = (field?.value ?? "").replace(/\D/g, "");
        seen.confirmedWith = { returnUrl: confirmParams?.return_url, redirect };
        if (card === AUTHENTICATION_CARD) {
          // The buyer authenticates on their bank's page; Stripe then sends the browser back to return_url.
          const settled = await settle(SUCCEEDING_CARD);
          const url = new URL(confirmParams.return_url);
          url.searchParams.set("payment_intent", settled.body.paymentIntentId);
          url.searchParams.set("payment_intent_client_secret", seen.clientSecret);
          url.searchParams.set("redirect_status", "succeeded");
          window.location.assign(url.toString());
          return new Promise(() => {});
        }
        const settled = await settle(card);
        if (!settled.ok) return { error: { type: "card_error", message: settled.body.message } };
        return { paymentIntent: { id: settled.body.paymentIntentId, status: "succeeded" } };
      },
      createToken: async () => ({}),
      createPaymentMethod: async () => ({}),
      confirmCardPayment: async () => ({}),
      registerAppInfo() {},
      _registerWrapper() {},
    };
  }
  // `version`: the release train @stripe/stripe-js expects (a mismatch would warn in the console).
  window.Stripe = Object.assign(createStripe, { version: "endive" });
})();

/**
 * The simulated provider's card check (product rule 9), with Stripe's test numbers and Stripe's own messages:
 * 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.
 */

import type { SimulatedCard } from "../../../../src/domain/schemas/payments";
import { SUCCEEDING_CARD } from "../../../../src/features/orders/orders";

export type CardCheck = { ok: true } | { ok: false; message: string; declined: boolean };

function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

export function checkSimulatedCard(card: Omit<SimulatedCard, "clientSecret">, now = new Date()): CardCheck {
  const number = card.cardNumber.replace(/[\s-]/g, "");
  if (!/^\d{13,19}$/.test(number)) return { ok: false, message: "Your card number is incomplete.", declined: false };
  if (!luhnValid(number)) return { ok: false, message: "Your card number is invalid.", declined: false };

  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2})\s*$/.exec(card.expiry);
  if (!expiry) return { ok: false, message: "Your card's expiration date is incomplete.", declined: false };
  const month = Number(expiry[1]);
  const year = 2000 + Number(expiry[2]);
  if (month < 1 || month > 12)
    return { ok: false, message: "Your card's expiration date is invalid.", declined: false };
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
    return { ok: false, message: "Your card's expiration date is in the past.", declined: false };
  }
  if (!/^\d{3,4}$/.test(card.cvc.trim())) {
    return { ok: false, message: "Your card's security code is incomplete.", declined: false };
  }
  if (number === SUCCEEDING_CARD) return { ok: true };
  return { ok: false, message: "Your card was declined.", declined: true };
}

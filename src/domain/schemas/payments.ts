/**
 * `POST /api/create-payment-intent` bodies (product rules 3, 49), one shape per context. The browser sends `amount`
 * in dollars; the server prices the order itself and refuses an amount that differs (D1).
 */

import { AGE_RANGES, RINGCLOUD_LEAD_TYPES, RINGCLOUD_TIER, SURVEY_LEAD_TYPES } from "../../features/orders/pricing";
import { emailAddress } from "./common";
import { z } from "./zod";

/** Spec-fixed name (`POST /api/create-payment-intent`): dollars; the checkout service converts it to cents. */
const amount = z
  .number({ error: "Amount must be a number in dollars" })
  .nonnegative("Amount must be a number in dollars");
const count = (field: string) =>
  z.number({ error: `${field} must be a whole number` }).int(`${field} must be a whole number`);
const ownerEmail = emailAddress("Please enter a valid email address").optional();
/** The saved wizard this payment completes (`POST /api/survey` answers it). */
const surveyId = z.string().max(100);

const PACKAGE_TIERS = ["high-volume", "premium", "enterprise", "ultimate"] as const;

const special = z.object({
  context: z.literal("special"),
  amount,
  callCount: count("Transfer count"),
  email: ownerEmail,
});
const packageTier = z.object({
  context: z.literal("package-tier"),
  amount,
  callCount: count("Transfer count"),
  tier: z.enum(PACKAGE_TIERS),
  email: ownerEmail,
});
const survey = z.object({
  context: z.literal("survey"),
  amount,
  leadType: z.enum(SURVEY_LEAD_TYPES, { error: "Please select a lead type" }),
  quantity: count("Quantity"),
  ageRange: z.enum(AGE_RANGES, { error: "Please select an age range" }).optional(),
  email: ownerEmail,
  surveyId: surveyId.optional(),
});
const ringcloud = z.object({
  context: z.literal("ringcloud"),
  amount,
  tier: z.literal(RINGCLOUD_TIER),
  packageType: z.enum(RINGCLOUD_LEAD_TYPES, { error: "Unknown package type" }),
  quantity: count("Quantity"),
  ageRange: z.enum(AGE_RANGES, { error: "Please select an age range" }).optional(),
  email: ownerEmail,
  surveyId: surveyId.optional(),
});

function contextOf(body: Record<string, unknown>): string {
  if (body.tier === RINGCLOUD_TIER) return "ringcloud";
  if (body.tier !== undefined) return "package-tier";
  if (body.leadType !== undefined) return "survey";
  return "special";
}

export const paymentIntentRequestSchema = z.preprocess(
  (body) =>
    body && typeof body === "object" && !Array.isArray(body)
      ? { ...body, context: contextOf(body as Record<string, unknown>) }
      : body,
  z.discriminatedUnion("context", [special, packageTier, survey, ringcloud], {
    error: "Send the order as a JSON object",
  }),
);
export type PaymentIntentRequest = z.infer<typeof paymentIntentRequestSchema>;

/** What every call that starts a payment answers (D1). */
export interface PaymentStart {
  clientSecret: string;
  orderId: string;
  /** What the card is charged, in cents. */
  amountCents: number;
  currency: string;
  provider: "stripe" | "simulated";
  publishableKey?: string;
}

/** The simulated card form (product rule 9): the fields Stripe's card form has. */
export const simulatedCardSchema = z.object({
  clientSecret: z.string({ error: "Missing payment" }).min(1, "Missing payment").max(200),
  cardNumber: z.string({ error: "Your card number is incomplete." }).max(40),
  expiry: z.string({ error: "Your card's expiration date is incomplete." }).max(10),
  cvc: z.string({ error: "Your card's security code is incomplete." }).max(10),
});
export type SimulatedCard = z.infer<typeof simulatedCardSchema>;

/** `GET /api/orders/:id/status?client_secret=…`: the payment's client secret proves the reader paid it. */
export const orderStatusQuerySchema = z.object({ client_secret: z.string().max(300).optional() });

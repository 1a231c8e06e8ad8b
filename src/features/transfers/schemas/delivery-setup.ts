/** The delivery settings' form and API bodies; the rules they use are in ../delivery-setup.ts. */

import { normalizeUsPhone } from "../../../domain/phone";
import { surveyStep1Schema } from "../../../domain/schemas/survey";
import { z } from "../../../domain/schemas/zod";
import { US_TIME_ZONES } from "../../../domain/time-zones";
import { US_STATE_CODES } from "../../../domain/us-states";
import { changePasswordSchema, loginSchema } from "../../accounts/index";
import { CLOCK, MAX_TRANSFERS_PER_DAY, SETUP_LINK_INVALID, statesFromText } from "../delivery-setup";
import { checkDeliveryLimits, deliveryLimitsShape } from "./delivery-limits";

const clock = (message: string) => z.string({ error: message }).regex(CLOCK, message);
/** The delivery-settings form and API body; `states` may be typed ('TX, FL') or sent as a list; none = all. */
export const deliverySettingsInputSchema = z
  .object({
    transferPhone: z
      .string({ error: "Enter the 10-digit US number transfers should ring" })
      .max(30)
      .refine((value) => normalizeUsPhone(value) !== null, "Enter the 10-digit US number transfers should ring"),
    states: z.preprocess(
      (value) => (typeof value === "string" ? statesFromText(value) : value),
      z
        .array(z.enum(US_STATE_CODES, { error: "Use two-letter state codes, e.g. TX, FL" }), {
          error: "Use two-letter state codes, e.g. TX, FL",
        })
        .max(US_STATE_CODES.length),
    ),
    hoursStart: clock("Choose when transfers may start"),
    hoursEnd: clock("Choose when transfers must stop"),
    timeZone: z.enum(US_TIME_ZONES, { error: "Choose the time zone of your transfer hours" }),
    perDayCap: z.coerce
      .number({ error: "Transfers per day must be a whole number" })
      .int("Transfers per day must be a whole number")
      .min(1, "Transfers per day must be at least 1")
      .max(MAX_TRANSFERS_PER_DAY, `At most ${MAX_TRANSFERS_PER_DAY} transfers per day`),
    // The order's own limits (docs/decisions/0068); each may be left out.
    ...deliveryLimitsShape,
  })
  .superRefine((values, context) => checkDeliveryLimits(values, values.perDayCap, context));
export type DeliverySettingsInput = z.input<typeof deliverySettingsInputSchema>;
export type DeliverySettingsValues = z.output<typeof deliverySettingsInputSchema>;

const setupToken = z.string({ error: SETUP_LINK_INVALID }).min(1, SETUP_LINK_INVALID).max(200, SETUP_LINK_INVALID);

export const setupTokenSchema = z.object({ token: setupToken });

/**
 * The setup page's save (docs/decisions/0028): the settings, and who the order belongs to. A link never
 * signs anyone in by itself: an order bought without an account gets a new one (`account`) or goes to an
 * existing buyer account whose password is given (`signIn`); an order with an account needs that
 * account's password, or its session.
 */
export const deliverySetupSchema = z.object({
  token: setupToken,
  settings: deliverySettingsInputSchema,
  account: z
    .object({
      username: surveyStep1Schema.shape.username,
      password: changePasswordSchema.shape.newPassword,
    })
    .optional(),
  signIn: loginSchema.optional(),
});
export type DeliverySetupRequest = z.input<typeof deliverySetupSchema>;

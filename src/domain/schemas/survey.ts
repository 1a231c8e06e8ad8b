/**
 * The /survey and /ringcloud wizards (product rules 42, 44): one schema per step, shared by the forms and by
 * `POST /api/survey` and `POST /api/ringcloud-survey`.
 */

import { PASSWORD_MIN } from "../../features/accounts/password-rule";
import { newPassword, PASSWORDS_DONT_MATCH } from "../../features/accounts/schemas/auth";
import { AGE_RANGES, RINGCLOUD_LEAD_TYPES, SURVEY_LEAD_TYPES } from "../../features/orders/pricing";
import { PHONE_MAX_LENGTH, PHONE_MIN_DIGITS, PHONE_TOO_SHORT } from "../phone";
import { CALLBACK_PREFERENCES, SURVEY_ROLES, type SurveyKind } from "../survey";
import { US_STATE_CODES } from "../us-states";
import { USERNAME_MAX, USERNAME_MIN, USERNAME_TOO_SHORT } from "../user";
import { emailAddress, numberFromInput, requiredString } from "./common";
import { z } from "./zod";

// The rules the wizards need without zod live in ../survey (decision 0016).
export { CALLBACK_PREFERENCES, SURVEY_ROLES, surveyQuantity } from "../survey";

/** A count typed into a number input: empty or NaN means "not given". */
const optionalCount = z.preprocess(
  numberFromInput,
  z.number({ error: "Enter a whole number" }).int("Enter a whole number").optional(),
);
const optionalText = z.string().trim().max(500).optional();
const positive = (value: number | undefined) => value !== undefined && value > 0;

const account = {
  username: requiredString(USERNAME_TOO_SHORT, USERNAME_MIN, USERNAME_MAX),
  password: newPassword,
};

/** Step 1 once the account exists: the profile can change, the account (username, e-mail, password) cannot. */
export const surveyProfileSchema = z.object({
  firstName: requiredString("First name is required", 1, 100),
  lastName: requiredString("Last name is required", 1, 100),
  agencyName: requiredString("Agency name is required", 1, 200),
  role: z.enum(SURVEY_ROLES, { error: "Please select your role" }),
  phone: requiredString(PHONE_TOO_SHORT, PHONE_MIN_DIGITS, PHONE_MAX_LENGTH),
});

export const surveyStep1Schema = surveyProfileSchema.extend({
  email: emailAddress("Please enter a valid email address"),
  ...account,
});
export type SurveyStep1 = z.infer<typeof surveyStep1Schema>;

/**
 * A choice (radio group) that may be left unanswered. A group shown and then hidden again (the buyer
 * picked Aged Leads, then another lead type) leaves the form holding null: that means "not given", so it
 * never blocks a step whose lead type does not ask for it.
 */
const choiceOrNone = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .enum(values, { error: message })
    .nullish()
    .transform((value) => value ?? undefined);

const surveyStep2Shape = z.object({
  leadType: z.enum(SURVEY_LEAD_TYPES, { error: "Please select a lead type" }),
  totalTransfers: optionalCount,
  callsPerDay: optionalCount,
  transferHours: optionalText,
  totalCallbacks: optionalCount,
  ageRange: choiceOrNone(AGE_RANGES, "Please select an age range"),
});

function checkSurveyStep2(v: z.infer<typeof surveyStep2Shape>, ctx: z.core.$RefinementCtx) {
  const need = (ok: boolean, path: string, message: string) =>
    ok || ctx.addIssue({ code: "custom", path: [path], message });
  if (v.leadType === "Live Transfers") {
    need(positive(v.totalTransfers), "totalTransfers", "Please enter the number of transfers you want");
    need(positive(v.callsPerDay), "callsPerDay", "Please enter calls per day");
    need(Boolean(v.transferHours), "transferHours", "Please enter transfer hours");
  } else if (v.leadType === "Call-Backs") {
    need(positive(v.totalCallbacks), "totalCallbacks", "Please enter the number of callbacks you want");
  } else {
    need(positive(v.totalCallbacks), "totalCallbacks", "Please enter the number of leads you want");
    need(v.ageRange !== undefined, "ageRange", "Please select an age range");
  }
}

export const surveyStep2Schema = surveyStep2Shape.superRefine(checkSurveyStep2);
export type SurveyStep2 = z.infer<typeof surveyStep2Schema>;

export const surveySubmissionSchema = surveyStep1Schema
  .extend(surveyStep2Shape.shape)
  // Spec-fixed name (POST /api/survey): cents.
  .extend({ totalPrice: z.number({ error: "Total price must be a whole number of cents" }).int() })
  .superRefine(checkSurveyStep2);
export type SurveySubmission = z.infer<typeof surveySubmissionSchema>;

/** The survey id a repeat save names; the session proves the account is the caller's. */
const savedSurvey = { surveyId: z.string({ error: "Survey id is required" }).min(1).max(100) };

/** A repeat `POST /api/survey` from the account the first save created: new answers, same survey. */
export const surveyUpdateSchema = surveyProfileSchema
  .extend(surveyStep2Shape.shape)
  .extend({ totalPrice: z.number({ error: "Total price must be a whole number of cents" }).int(), ...savedSurvey })
  .superRefine(checkSurveyStep2);

/** True when a request body names the survey it updates (a repeat save). */
export const namesSavedSurvey = (body: unknown): boolean =>
  typeof body === "object" && body !== null && "surveyId" in body && Boolean(body.surveyId);

/** Ringcloud step 1 once the account exists (see `surveyProfileSchema`). */
export const ringcloudProfileSchema = z.object({
  agencyName: requiredString("Agency name is required", 1, 200),
  firstName: requiredString("First name is required", 1, 100),
  lastName: requiredString("Last name is required", 1, 100),
  phone: requiredString("Phone number required", 10, 30),
  state: z.enum(US_STATE_CODES, { error: "State is required" }),
});
export type RingcloudProfile = z.infer<typeof ringcloudProfileSchema>;

export const ringcloudStep1Schema = ringcloudProfileSchema
  .extend({
    email: emailAddress("Valid email required"),
    ...account,
    confirmPassword: z
      .string({ error: "Please confirm your password" })
      .min(PASSWORD_MIN, "Please confirm your password")
      .max(200),
  })
  .refine((v) => v.password === v.confirmPassword, { message: PASSWORDS_DONT_MATCH, path: ["confirmPassword"] });
export type RingcloudStep1 = z.infer<typeof ringcloudStep1Schema>;

const ringcloudStep2Shape = z.object({
  leadType: z.enum(RINGCLOUD_LEAD_TYPES, { error: "Please select a lead type" }),
  transfersPerDay: optionalCount,
  totalTransfers: optionalCount,
  transferHours: optionalText,
  transferPhone: optionalText,
  callbackPreference: choiceOrNone(CALLBACK_PREFERENCES, "Please choose a callback time"),
  ageRange: choiceOrNone(AGE_RANGES, "Please select an age range"),
  workingStates: requiredString("Please list the states you work in", 1, 500),
});

function checkRingcloudStep2(v: z.infer<typeof ringcloudStep2Shape>, ctx: z.core.$RefinementCtx) {
  const need = (ok: boolean, path: string, message: string) =>
    ok || ctx.addIssue({ code: "custom", path: [path], message });
  need(positive(v.totalTransfers), "totalTransfers", "Must be at least 1");
  if (v.leadType === "live_transfers") {
    need(positive(v.transfersPerDay), "transfersPerDay", "Must be at least 1");
    need(Boolean(v.transferHours), "transferHours", "Please enter transfer hours");
    need((v.transferPhone ?? "").length >= PHONE_MIN_DIGITS, "transferPhone", PHONE_TOO_SHORT);
  } else if (v.leadType === "call_backs") {
    need(v.callbackPreference !== undefined, "callbackPreference", "Please choose a callback time");
  } else {
    need(v.ageRange !== undefined, "ageRange", "Please select an age range");
  }
}

export const ringcloudStep2Schema = ringcloudStep2Shape.superRefine(checkRingcloudStep2);
export type RingcloudStep2 = z.infer<typeof ringcloudStep2Schema>;

export const ringcloudSubmissionSchema = ringcloudStep1Schema.and(
  ringcloudStep2Shape
    .extend({ role: z.literal("Insurance Agent").default("Insurance Agent") })
    .superRefine(checkRingcloudStep2),
);
export type RingcloudSubmission = z.infer<typeof ringcloudSubmissionSchema>;

/** A repeat `POST /api/ringcloud-survey` (see `surveyUpdateSchema`). */
export const ringcloudUpdateSchema = ringcloudProfileSchema
  .extend(savedSurvey)
  .and(
    ringcloudStep2Shape
      .extend({ role: z.literal("Insurance Agent").default("Insurance Agent") })
      .superRefine(checkRingcloudStep2),
  );

/** What `GET /api/surveys/:id` gives the account that owns the survey, to resume its wizard. */
export interface SavedSurvey {
  surveyId: string;
  kind: SurveyKind;
  username: string;
  email: string;
  answers: Record<string, unknown>;
}

/** Where `POST /api/ringcloud-survey` sends the buyer next (product rule 44). */
export interface RingcloudCheckoutParams {
  /** Spec-fixed query parameters: `amount` and `pricePerUnit` in dollars. */
  amount: number;
  calls: number;
  tier: "ringcloud";
  packageType: (typeof RINGCLOUD_LEAD_TYPES)[number];
  pricePerUnit: number;
  ageRange?: (typeof AGE_RANGES)[number];
  survey: string;
}

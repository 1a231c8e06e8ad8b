/** Requests of the Lead Tracker, returns and admin decisions. */

import { pageQuerySchema } from "../../../domain/schemas/common";
import { z } from "../../../domain/schemas/zod";
import { CALLBACK_OUTCOMES } from "../../callbacks/index";
import { CALLBACK_RETURN_MESSAGES } from "../callback-returns";
import {
  DECISION_NOTE_MAX,
  OTHER_REASON,
  RETURN_KINDS,
  RETURN_MESSAGES,
  RETURN_REASON_VALUES,
  RETURN_STATUSES,
  RETURN_TEXT_MAX,
} from "../returns";

export * from "../returns";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (label: string) =>
  z
    .string()
    .regex(DAY, `${label} must be a date (YYYY-MM-DD)`)
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), `${label} must be a date (YYYY-MM-DD)`)
    .optional();

export const trackerQuerySchema = pageQuerySchema.extend({
  orderId: z.string().trim().min(1).max(100).optional(),
  from: day("From"),
  to: day("To"),
  billable: z.enum(["true", "false"], { error: "Billable must be true or false" }).optional(),
});
export type TrackerQuery = z.infer<typeof trackerQuerySchema>;

export const createReturnSchema = z
  .object({
    kind: z.enum(RETURN_KINDS, { error: "Choose what to return" }),
    itemId: z.string({ error: "Choose what to return" }).trim().min(1, "Choose what to return").max(100),
    reason: z.enum(RETURN_REASON_VALUES, { error: "Choose a reason" }),
    reasonText: z
      .string()
      .trim()
      .max(RETURN_TEXT_MAX, `Keep the description under ${RETURN_TEXT_MAX} characters`)
      .optional()
      .transform((value) => value || undefined),
  })
  .refine((body) => body.reason !== OTHER_REASON || Boolean(body.reasonText), {
    message: RETURN_MESSAGES.otherTextRequired,
    path: ["reasonText"],
  });
export type CreateReturnInput = z.infer<typeof createReturnSchema>;

export const adminReturnsQuerySchema = z.object({
  status: z.enum(RETURN_STATUSES, { error: "Status must be pending, approved or denied" }).optional(),
});

export const returnDecisionSchema = z
  .object({
    decision: z.enum(["approved", "denied"], { error: "Decision must be approved or denied" }),
    note: z
      .string()
      .trim()
      .max(DECISION_NOTE_MAX, `Keep the note under ${DECISION_NOTE_MAX} characters`)
      .optional()
      .transform((value) => value || undefined),
  })
  .refine((body) => body.decision !== "denied" || Boolean(body.note), {
    message: RETURN_MESSAGES.noteRequired,
    path: ["note"],
  });
export type ReturnDecisionInput = z.infer<typeof returnDecisionSchema>;

/**
 * The buyer marks a delivered call-back (PUT /api/my-callbacks/:id/outcome, decision 0062). Here, not in
 * ./callbacks: that module builds the partner API's schemas, which must be built after the OpenAPI
 * extension loads, so the buyer's routes do not import it.
 */
export const callbackOutcomeSchema = z.object({
  outcome: z.enum(CALLBACK_OUTCOMES, { error: CALLBACK_RETURN_MESSAGES.outcomeInvalid }),
});

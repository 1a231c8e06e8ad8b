/**
 * A call-back or an appointment as a partner sends it (`POST /api/v1/callbacks`) and as the admin's
 * form sends it: the prospect and consent exactly as a ping carries them (./partner-api.ts), plus the
 * window the prospect agreed to, in the prospect's local time (src/features/callbacks/callbacks.ts).
 */

import type { Callable, WindowFit } from "../../../domain/callable";
import { z } from "../../../domain/schemas/zod.ts";
import { US_TIME_ZONES } from "../../../domain/time-zones.ts";
import type { ConsentSummary } from "../../consent/index.ts";
import { pingSchema } from "../../transfers/index.ts";
import type { CallbackOutcome } from "../callback-outcomes.ts";
import { CALLBACK_KINDS } from "../callbacks.ts";

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const CALLBACK_MESSAGES = {
  date: "window.date must be a date YYYY-MM-DD",
  from: "window.from must be a time HH:MM (24-hour)",
  to: "window.to must be a time HH:MM (24-hour) after window.from",
  toNeeded: "window.to is required for a call-back (an appointment takes window.from only)",
  timeZone: `prospect.timeZone must be one of ${US_TIME_ZONES.join(", ")}`,
} as const;

export const callbackSchema = z
  .object(
    {
      kind: z
        .enum(CALLBACK_KINDS, { error: `kind must be one of ${CALLBACK_KINDS.join(", ")}` })
        .default("callback")
        .meta({
          description: "`callback`: call within the window. `appointment`: call at window.from.",
          example: "callback",
        }),
      prospect: pingSchema.shape.prospect.extend({
        email: z.email({ error: "prospect.email must be an e-mail address" }).max(200).optional(),
        timeZone: z.enum(US_TIME_ZONES, { error: CALLBACK_MESSAGES.timeZone }).optional().meta({
          description: "The prospect's time zone; the state's main zone when left out.",
          example: "America/Chicago",
        }),
      }),
      window: z.object(
        {
          date: z.iso.date({ error: CALLBACK_MESSAGES.date }).meta({ example: "2026-12-01" }),
          from: z
            .string({ error: CALLBACK_MESSAGES.from })
            .regex(CLOCK, CALLBACK_MESSAGES.from)
            .meta({ example: "14:00" }),
          to: z
            .string({ error: CALLBACK_MESSAGES.to })
            .regex(CLOCK, CALLBACK_MESSAGES.to)
            .optional()
            .meta({ example: "16:00" }),
        },
        { error: "window is required (date, from, and to for a call-back)" },
      ),
      consent: pingSchema.shape.consent,
    },
    { error: "Send a JSON object with kind, prospect, window and consent" },
  )
  .superRefine((value, context) => {
    if (value.kind === "callback" && value.window.to === undefined)
      context.addIssue({ code: "custom", path: ["window", "to"], message: CALLBACK_MESSAGES.toNeeded });
    else if (value.kind === "callback" && value.window.to !== undefined && value.window.to <= value.window.from)
      context.addIssue({ code: "custom", path: ["window", "to"], message: CALLBACK_MESSAGES.to });
  });
export type CallbackInput = z.output<typeof callbackSchema>;

export const callbackAcceptedSchema = z.object({
  callbackId: z.string().meta({ example: "9d2c7a4e-1b6f-4e3a-8c5d-2f7e9a1b3c4d" }),
  windowStart: z
    .string()
    .meta({ description: "The window's start, ISO 8601 (UTC).", example: "2026-12-01T20:00:00.000Z" }),
  windowEnd: z.string().meta({ description: "The window's end, ISO 8601 (UTC).", example: "2026-12-01T22:00:00.000Z" }),
});
export type CallbackAccepted = z.infer<typeof callbackAcceptedSchema>;

/** A delivered call-back as its buyer sees it (My Call-Backs). */
export interface DeliveredCallback {
  id: string;
  kind: (typeof CALLBACK_KINDS)[number];
  name: string;
  phone: string;
  email: string;
  state: string;
  timeZone: string;
  windowStart: string;
  windowEnd: string;
  deliveredAt: string;
  orderId: string;
  /** The consent evidence as stored: the same object as the `callback.delivered` webhook's. */
  consent: ConsentSummary;
  /** What the buyer marked after calling (decision 0062), null until marked. */
  outcome: CallbackOutcome | null;
  /** The last moment it can be returned (ISO): 24 hours after its window ends. */
  returnBy: string;
  /** Its return's status and the admin's note, null when not returned. */
  returnStatus: "pending" | "approved" | "denied" | null;
  returnNote: string | null;
  /** Whether it may be called now or from when, at the server's clock (decision 0070). */
  callable: Callable;
  /** How its own window lies within the legal calling hours. */
  windowFit: WindowFit;
}

/**
 * What a buyer marks on a delivered call-back or appointment when they called (docs/decisions/0062), and
 * until when it can be returned: the call-back's own record, shown on My Call-Backs. Whether and how it is
 * returned is the returns' rule (src/features/returns/callback-returns.ts). Pure: shared by the Worker and
 * the views.
 */

export const CALLBACK_OUTCOMES = ["reached", "no_answer", "wrong_number"] as const;
export type CallbackOutcome = (typeof CALLBACK_OUTCOMES)[number];

export const CALLBACK_OUTCOME_LABELS: Record<CallbackOutcome, string> = {
  reached: "Reached",
  no_answer: "No answer",
  wrong_number: "Wrong number",
};

/** How long after its window ends a call-back can be returned. */
export const CALLBACK_RETURN_HOURS = 24;
const CALLBACK_RETURN_MS = CALLBACK_RETURN_HOURS * 60 * 60 * 1000;

/** The last moment (epoch ms) a call-back whose window ends at `windowEnd` can be returned. */
export const callbackReturnBy = (windowEnd: number): number => windowEnd + CALLBACK_RETURN_MS;

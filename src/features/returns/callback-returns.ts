/**
 * Outcomes and returns of delivered call-backs and appointments (product rule 24, docs/decisions/0062).
 * The buyer marks what happened when they called; one not reached in its window (no answer, wrong
 * number) can be returned from the moment its window ends until 24 hours after. Pure: shared by the
 * Worker and My Call-Backs.
 */
import { CALLBACK_RETURN_HOURS, type CallbackOutcome, callbackReturnBy } from "../callbacks/index";

/** The outcomes that mean the prospect was not reached in the window: only these can be returned. */
export const UNREACHED_OUTCOMES: readonly CallbackOutcome[] = ["no_answer", "wrong_number"];

/** Whether `now` is in the return period: from the window's end until 24 hours after, both included. */
export function withinCallbackReturnPeriod(windowEnd: number, now: number): boolean {
  return now >= windowEnd && now <= callbackReturnBy(windowEnd);
}

export const CALLBACK_RETURN_MESSAGES = {
  period: `A call-back can be returned from the end of its window until ${CALLBACK_RETURN_HOURS} hours after.`,
  notUnreached: "Only a call-back marked no answer or wrong number can be returned.",
  outcomeLocked: "This call-back was returned, so its outcome can no longer be changed.",
  outcomeInvalid: "Outcome must be reached, no answer or wrong number",
} as const;

/**
 * Why a call-back cannot be returned at `now` (its outcome and window end as stored), or null when it can.
 * The cap and "already returned" are checked where the return is recorded.
 */
export function callbackReturnProblem(
  callback: { outcome: CallbackOutcome | null; windowEnd: number },
  now: number,
): string | null {
  if (!callback.outcome || !UNREACHED_OUTCOMES.includes(callback.outcome)) return CALLBACK_RETURN_MESSAGES.notUnreached;
  if (!withinCallbackReturnPeriod(callback.windowEnd, now)) return CALLBACK_RETURN_MESSAGES.period;
  return null;
}

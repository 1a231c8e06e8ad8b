/**
 * A delivered call-back's outcome and return, in My Call-Backs (docs/decisions/0062): the buyer marks it
 * reached, no answer or wrong number, and returns one not reached from the end of its window until 24
 * hours after, with a reason. Native selects and buttons (keyboard and screen readers as the browser
 * gives them); no form library, so the dashboard stays within its JavaScript budget.
 */

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { formatDateTime } from "../../../domain/format";
import { api, call, errorMessage } from "../../../lib/api";
import { buttonClass, inputClass, labelClass } from "../../../ui/styles";
import {
  CALLBACK_OUTCOME_LABELS,
  CALLBACK_OUTCOMES,
  type CallbackOutcome,
  type DeliveredCallback,
} from "../../callbacks/index";
import { callbackReturnProblem } from "../callback-returns";
import { OTHER_REASON, RETURN_REASONS, RETURN_TEXT_MAX, type ReturnReason } from "../returns";
import { ReturnStatusBadge } from "./return-status";

export function CallbackActions({ item, now }: { item: DeliveredCallback; now: number }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [error, setError] = useState("");
  const [returning, setReturning] = useState(false);
  const [reason, setReason] = useState<ReturnReason | "">("");
  const [reasonText, setReasonText] = useState("");
  const refresh = () => queryClient.invalidateQueries();
  const fail = (fallback: string) => (cause: unknown) => setError(errorMessage(cause, fallback));

  const mark = useMutation({
    mutationFn: (outcome: CallbackOutcome) =>
      call(api["my-callbacks"][":id"].outcome.$put({ param: { id: item.id }, json: { outcome } })),
    onSuccess: () => {
      setError("");
      return refresh();
    },
    onError: fail("The outcome could not be saved. Please try again."),
  });
  const send = useMutation({
    mutationFn: () =>
      call(
        api.returns.$post({
          json: {
            kind: "callback",
            itemId: item.id,
            reason: reason as ReturnReason,
            reasonText: reasonText || undefined,
          },
        }),
      ),
    onSuccess: () => {
      setError("");
      setReturning(false);
      return refresh();
    },
    onError: fail("The return could not be sent. Please try again."),
  });

  const locked = item.returnStatus === "pending" || item.returnStatus === "approved";
  const returnBy = Date.parse(item.returnBy);
  const problem = callbackReturnProblem({ outcome: item.outcome, windowEnd: Date.parse(item.windowEnd) }, now);
  const canReturn = !item.returnStatus && problem === null;
  const missingText = reason === OTHER_REASON && !reasonText.trim();

  return (
    <div className="space-y-3 border-t border-line pt-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-40 flex-1">
          <label htmlFor={`${id}-outcome`} className={labelClass}>
            Outcome
          </label>
          <select
            id={`${id}-outcome`}
            className={inputClass}
            value={item.outcome ?? ""}
            disabled={locked || mark.isPending}
            onChange={(event) => event.target.value && mark.mutate(event.target.value as CallbackOutcome)}
          >
            <option value="" disabled>
              Not marked yet
            </option>
            {CALLBACK_OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {CALLBACK_OUTCOME_LABELS[outcome]}
              </option>
            ))}
          </select>
        </div>
        {item.returnStatus ? (
          <p className="flex items-center gap-2 text-sm">
            Return <ReturnStatusBadge status={item.returnStatus} />
          </p>
        ) : (
          <button
            type="button"
            className={buttonClass("secondary")}
            disabled={!canReturn}
            aria-expanded={returning}
            aria-controls={`${id}-return`}
            aria-describedby={`${id}-return-hint`}
            onClick={() => setReturning(!returning)}
          >
            Return
          </button>
        )}
      </div>
      {!item.returnStatus && (
        <p id={`${id}-return-hint`} className="text-sm text-ink-soft">
          {canReturn ? `You can return it until ${formatDateTime(returnBy)}.` : problem}
        </p>
      )}
      {item.returnNote && (
        <p className="text-sm">
          <span className="font-semibold">Note from our team:</span> {item.returnNote}
        </p>
      )}
      {returning && canReturn && (
        <form
          id={`${id}-return`}
          className="space-y-3 rounded-xl bg-brand-50 p-3"
          onSubmit={(event) => {
            event.preventDefault();
            if (reason && !missingText) send.mutate();
          }}
        >
          <div>
            <label htmlFor={`${id}-reason`} className={labelClass}>
              Reason
            </label>
            <select
              id={`${id}-reason`}
              className={inputClass}
              required
              value={reason}
              onChange={(event) => setReason(event.target.value as ReturnReason)}
            >
              <option value="">Choose a reason</option>
              {RETURN_REASONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          {reason === OTHER_REASON && (
            <div>
              <label htmlFor={`${id}-text`} className={labelClass}>
                Describe the reason
              </label>
              <textarea
                id={`${id}-text`}
                rows={2}
                required
                maxLength={RETURN_TEXT_MAX}
                className={inputClass}
                value={reasonText}
                onChange={(event) => setReasonText(event.target.value)}
              />
            </div>
          )}
          <div className="flex flex-wrap gap-2">
            <button
              type="submit"
              className={buttonClass("primary")}
              disabled={!reason || missingText || send.isPending}
            >
              {send.isPending ? "Sending..." : "Send return"}
            </button>
            <button type="button" className={buttonClass("ghost")} onClick={() => setReturning(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Return a Lead (product rules 24-26): the buyer picks a returnable transfer or aged lead, gives a reason and
 * sends it to the admins' queue; below, their returns with the decision and the admin's note.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { formatDateTime } from "../../../domain/format";
import { type Answer, api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { ChoiceGroup } from "../../../ui/choice";
import { Form } from "../../../ui/form";
import { RetryNotice } from "../../../ui/retry";
import { useSchemaForm } from "../../../ui/schema-form";
import { Spinner } from "../../../ui/spinner";
import { fieldErrorClass, inputClass, labelClass } from "../../../ui/styles";
import { toast } from "../../../ui/toast";
import {
  AGED_LEAD_RETURN_WINDOW_DAYS,
  OTHER_REASON,
  RETURN_REASONS,
  RETURN_TEXT_MAX,
  RETURN_WINDOWS_TEXT,
  type ReturnKind,
  remainingText,
  returnReasonLabel,
  TRANSFER_RETURN_WINDOW_HOURS,
} from "../returns";
import type { CreateReturnInput } from "../schemas/returns";
import { ReturnStatusBadge } from "./return-status";

const RETURNS_URL = "/api/returns";

type EligibleReturns = Answer<typeof api.returns.eligible.$get>;
type BuyerReturn = Answer<typeof api.returns.$get>["returns"][number];
const ELIGIBLE_URL = "/api/returns/eligible";

const KIND_LABELS: Record<ReturnKind, string> = {
  transfer: "Live transfer",
  aged_lead: "Aged lead",
  callback: "Call-back",
};

type Values = { kind: ReturnKind; itemId: string; reason: string; reasonText: string };
/** What the schema reads: a reason not yet chosen is missing, not empty. */
const input = (values: Values) => ({ ...values, reason: values.reason || undefined });

/**
 * The return form. Until what may be returned has loaded (`eligible` undefined) it shows, disabled, at its
 * final size: the page's HTML holds the form, and nothing below it moves when the list arrives. Plain React
 * state checked by the API's own schema (decision 0074): the page has no room for a form library.
 */
function ReturnForm({ eligible, preselect }: { eligible: EligibleReturns | undefined; preselect: string | null }) {
  const queryClient = useQueryClient();
  const id = useId();
  const loading = eligible === undefined;
  const transfers = eligible?.transfers ?? [];
  const agedLeads = eligible?.agedLeads ?? [];
  const kindOf = (itemId: string): ReturnKind =>
    agedLeads.some((lead) => lead.id === itemId) ? "aged_lead" : "transfer";
  const initial = preselect && transfers.some((t) => t.id === preselect) ? preselect : "";
  // Plain state checked by the API's own schema, which loads with the first send (decisions 0016, 0074).
  const form = useSchemaForm({
    initial: (): Values => ({ kind: kindOf(initial), itemId: initial, reason: "", reasonText: "" }),
    fields: ["kind", "itemId", "reason", "reasonText"],
    load: () => import("../schemas/returns").then((m) => m.createReturnSchema),
    input,
  });
  // Bumped by a sent return: the reason's radios start again unchecked.
  const [sent, setSent] = useState(0);
  const [serverError, setServerError] = useState("");
  const send = useMutation({
    mutationFn: (body: CreateReturnInput) => call(api.returns.$post({ json: body })),
    onSuccess: async (created) => {
      setServerError("");
      form.reset({ kind: "transfer", itemId: "", reason: "", reasonText: "" });
      setSent((count) => count + 1);
      toast({
        title: "Return sent",
        description: `${created.itemLabel} is waiting for review.`,
        variant: "success",
      });
      // The returns list, what remains returnable and the tracker's return column all change.
      await queryClient.invalidateQueries();
    },
    // What the buyer typed stays; the server's reason shows above the button.
    onError: (error) => setServerError(errorMessage(error, "The return could not be sent. Please try again.")),
  });
  const { values, errors, change } = form;
  const reason = values.reason;
  const itemError = errors.itemId;
  const textError = errors.reasonText;
  const none = !loading && transfers.length === 0 && agedLeads.length === 0;

  if (none) {
    return (
      <p className="rounded-xl border border-dashed border-line py-8 text-center text-ink-soft">
        Nothing to return right now. {RETURN_WINDOWS_TEXT}
      </p>
    );
  }
  return (
    <Form className="space-y-5" onSubmit={form.submit((body) => send.mutate(body))}>
      <input type="hidden" name="kind" value={values.kind} />
      <div>
        <label htmlFor={`${id}-item`} className={labelClass}>
          What do you want to return?
        </label>
        <select
          id={`${id}-item`}
          className={inputClass}
          aria-invalid={itemError ? true : undefined}
          aria-describedby={`${id}-item-hint${itemError ? ` ${id}-item-error` : ""}`}
          disabled={loading}
          name="itemId"
          value={values.itemId}
          onChange={(event) => change({ itemId: event.target.value, kind: kindOf(event.target.value) }, "itemId")}
        >
          <option value="">{loading ? "Loading what you can return..." : "Choose a transfer or lead"}</option>
          {[
            { label: `Live transfers (within ${TRANSFER_RETURN_WINDOW_HOURS} hours)`, items: transfers },
            { label: `Aged leads (within ${AGED_LEAD_RETURN_WINDOW_DAYS} days)`, items: agedLeads },
          ].map(
            (group) =>
              group.items.length > 0 && (
                <optgroup key={group.label} label={group.label}>
                  {group.items.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.label} · return by {formatDateTime(c.returnBy)}
                    </option>
                  ))}
                </optgroup>
              ),
          )}
        </select>
        <p id={`${id}-item-hint`} className="mt-1.5 text-sm text-muted">
          {RETURN_WINDOWS_TEXT}
        </p>
        {itemError && (
          <p id={`${id}-item-error`} className={fieldErrorClass} role="alert">
            {itemError}
          </p>
        )}
      </div>
      <ChoiceGroup
        key={sent}
        legend="Reason"
        columns={2}
        options={RETURN_REASONS}
        name="reason"
        error={errors.reason}
        onChange={(event) => change({ reason: event.target.value }, "reason")}
      />
      {reason === OTHER_REASON && (
        <div>
          <label htmlFor={`${id}-text`} className={labelClass}>
            Describe the reason
          </label>
          <textarea
            id={`${id}-text`}
            rows={3}
            maxLength={RETURN_TEXT_MAX}
            className={inputClass}
            aria-invalid={textError ? true : undefined}
            aria-describedby={textError ? `${id}-text-error` : undefined}
            name="reasonText"
            value={values.reasonText}
            onChange={(event) => change({ reasonText: event.target.value }, "reasonText")}
          />
          {textError && (
            <p id={`${id}-text-error`} className={fieldErrorClass} role="alert">
              {textError}
            </p>
          )}
        </div>
      )}
      {serverError && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-900">
          {serverError}
        </p>
      )}
      <Button type="submit" size="lg" busy={send.isPending} disabled={loading || eligible.remaining <= 0}>
        {send.isPending ? "Sending..." : "Send return"}
      </Button>
    </Form>
  );
}

function ReturnsList({ returns }: { returns: BuyerReturn[] }) {
  if (returns.length === 0) {
    return (
      <p className="rounded-xl border border-dashed border-line py-8 text-center text-ink-soft">
        You have not returned anything yet.
      </p>
    );
  }
  return (
    <ul className="space-y-3">
      {returns.map((r) => (
        <li key={r.id} className="space-y-1 rounded-xl border border-line bg-white p-4" data-testid={`return-${r.id}`}>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="font-semibold">
              {KIND_LABELS[r.kind]}: {r.itemLabel}
            </p>
            <ReturnStatusBadge status={r.status} />
          </div>
          <p className="text-sm text-ink-soft">
            {returnReasonLabel(r.reason)}
            {r.reasonText ? ` — ${r.reasonText}` : ""} · sent {formatDateTime(r.createdAt)}
            {r.decidedAt !== null && ` · decided ${formatDateTime(r.decidedAt)}`}
          </p>
          {r.adminNote && (
            <p className="text-sm">
              <span className="font-semibold">Note from our team:</span> {r.adminNote}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/** `preselect`: the transfer the page's `?transfer=` names (the Lead Tracker's Return action). */
export function ReturnLeadView({ preselect = null }: { preselect?: string | null }) {
  const overview = useQuery({ queryKey: [RETURNS_URL], queryFn: () => call(api.returns.$get()) });
  const eligible = useQuery({ queryKey: [ELIGIBLE_URL], queryFn: () => call(api.returns.eligible.$get()) });
  const remaining = eligible.data?.remaining ?? overview.data?.remaining;
  return (
    <section aria-labelledby="return-title" className="space-y-5">
      <div>
        <h2 id="return-title" className="text-2xl font-bold">
          Return a Lead
        </h2>
        {/* The line is there while the count loads, so the form below it does not move. */}
        <p className="text-ink-soft" data-testid="returns-remaining" aria-busy={remaining === undefined || undefined}>
          {remainingText(remaining)}
        </p>
      </div>
      <Card>
        {eligible.isError ? (
          <RetryNotice
            message={errorMessage(eligible.error, "What you can return could not be loaded.")}
            onRetry={() => void eligible.refetch()}
            busy={eligible.isFetching}
          />
        ) : (
          // A new form once the list is there, so it starts from the list (a preselected transfer).
          <ReturnForm key={eligible.data ? "loaded" : "loading"} eligible={eligible.data} preselect={preselect} />
        )}
      </Card>
      <section aria-labelledby="your-returns-title" className="space-y-3">
        <h3 id="your-returns-title" className="text-lg font-bold">
          Your returns
        </h3>
        {overview.isPending ? (
          <Spinner label="Loading your returns..." />
        ) : overview.isError ? (
          <RetryNotice
            message={errorMessage(overview.error, "Your returns could not be loaded.")}
            onRetry={() => void overview.refetch()}
            busy={overview.isFetching}
          />
        ) : (
          <ReturnsList returns={overview.data.returns} />
        )}
      </section>
    </section>
  );
}

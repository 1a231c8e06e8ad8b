/**
 * The Lead Tracker's resume for an order the system paused after unanswered transfers (decision 0027):
 * the buyer confirms the transfer number, or changes it, before deliveries resume. A pause that needs an
 * admin says so instead and offers nothing to click.
 */

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { normalizeUsPhone } from "../../../domain/phone";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { fieldErrorClass, inputClass, labelClass } from "../../../ui/styles";
import { RESUME_REFUSALS } from "../delivery-pauses";
import type { TrackerOrder } from "../order-progress";

const INVALID_NUMBER = "Enter the 10-digit US number transfers should ring";

export function ResumeWithNumber({
  order,
  onResumed,
}: {
  order: TrackerOrder;
  onResumed: (updated: TrackerOrder) => void | Promise<void>;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [phone, setPhone] = useState(order.transferPhone ?? "");
  const [error, setError] = useState("");
  const resume = useMutation({
    mutationFn: (transferPhone: string) =>
      call(api.tracker.orders[":orderId"].resume.$post({ param: { orderId: order.orderId }, json: { transferPhone } })),
    onSuccess: async (updated) => {
      setOpen(false);
      await onResumed(updated);
    },
    onError: (failure) => setError(errorMessage(failure, "Could not resume deliveries. Please try again.")),
  });
  if (order.pause?.needsAdmin) {
    return (
      <p className="max-w-sm text-sm text-amber-900" data-testid="pause-needs-admin">
        {RESUME_REFUSALS.needs_admin}
      </p>
    );
  }
  if (!open) {
    return (
      <Button variant="secondary" onClick={() => setOpen(true)} aria-expanded={false}>
        Resume deliveries
      </Button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!normalizeUsPhone(phone)) return setError(INVALID_NUMBER);
    setError("");
    resume.mutate(phone);
  };
  return (
    <form onSubmit={submit} noValidate className="w-full space-y-2 rounded-lg bg-amber-50 p-3 sm:w-80">
      <p className="text-sm">
        Deliveries paused because {order.pause?.reason}. Confirm the number transfers ring, or change it, to resume.
      </p>
      <div>
        <label htmlFor={`${id}-phone`} className={labelClass}>
          Transfer number
        </label>
        <input
          id={`${id}-phone`}
          className={inputClass}
          type="tel"
          autoComplete="tel-national"
          inputMode="tel"
          value={phone}
          onChange={(event) => setPhone(event.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          // biome-ignore lint/a11y/noAutofocus: the field the buyer just asked for
          autoFocus
        />
        {error && (
          <p id={`${id}-error`} role="alert" className={fieldErrorClass}>
            {error}
          </p>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={resume.isPending}>
          Confirm and resume
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

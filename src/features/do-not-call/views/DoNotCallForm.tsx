/**
 * The /do-not-call form: server-rendered and hydrated. Its fields work before (and
 * without) JavaScript: the form posts to the page itself, which hands the fields to the same API and
 * renders the answer (src/pages/do-not-call.astro). Once hydrated, it sends them with `fetch` and shows
 * the server's answer in place: the field messages of the one schema (schemas/suppression.ts), or the
 * confirmation, moved into view and announced.
 */
import { type SubmitEvent, useEffect, useRef, useState } from "react";
import { ApiError, api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Field } from "../../../ui/input";
import { fieldErrorClass, inputClass, labelClass } from "../../../ui/styles";
import { DO_NOT_CALL_LIMITS } from "../suppression";

export interface DoNotCallFormProps {
  phone?: string;
  email?: string;
  reason?: string;
  errors?: Record<string, string>;
  /** The page's own answer to a form posted without JavaScript. */
  confirmation?: string | null;
  failure?: string | null;
}

export default function DoNotCallForm(props: DoNotCallFormProps) {
  const [phone, setPhone] = useState(props.phone ?? "");
  const [email, setEmail] = useState(props.email ?? "");
  const [reason, setReason] = useState(props.reason ?? "");
  const [errors, setErrors] = useState<Record<string, string>>(props.errors ?? {});
  const [failure, setFailure] = useState<string | null>(props.failure ?? null);
  const [confirmation, setConfirmation] = useState<string | null>(props.confirmation ?? null);
  const [busy, setBusy] = useState(false);
  const done = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (confirmation) done.current?.focus();
  }, [confirmation]);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const answer = await call(api["do-not-call"].$post({ json: { phone, email, reason } }));
      setErrors({});
      setConfirmation(answer.message);
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      setErrors(fields);
      if (Object.keys(fields).length === 0)
        setFailure(errorMessage(error, "Your request could not be sent. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  if (confirmation) {
    return (
      <div
        ref={done}
        tabIndex={-1}
        role="status"
        className="rounded-xl border border-brand-100 bg-brand-50 p-6 outline-none"
      >
        <h2 className="text-xl font-bold text-brand-700">Your number is on our Do Not Call list</h2>
        <p className="mt-2" data-testid="do-not-call-confirmation">
          {confirmation}
        </p>
        <p className="mt-3 text-sm text-ink-soft">
          You can close this page. If calls continue from a company that bought your number from us, tell us at the
          address below.
        </p>
      </div>
    );
  }

  return (
    <form method="post" noValidate onSubmit={(event) => void submit(event)} className="space-y-5">
      {failure && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-900">
          {failure}
        </p>
      )}
      <Field
        label="Phone number"
        name="phone"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        required
        value={phone}
        onChange={(event) => setPhone(event.target.value)}
        error={errors.phone}
        hint="The 10-digit US number that should not be called, e.g. (305) 555-0100."
      />
      <Field
        label="Email (optional)"
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        error={errors.email}
        hint="Only if you want us to be able to reach you about this request."
      />
      <div>
        <label htmlFor="dnc-reason" className={labelClass}>
          Reason (optional)
        </label>
        <textarea
          id="dnc-reason"
          name="reason"
          rows={3}
          maxLength={DO_NOT_CALL_LIMITS.reasonLength}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={errors.reason ? "dnc-reason-error" : undefined}
          className={inputClass}
        />
        {errors.reason && (
          <p id="dnc-reason-error" className={fieldErrorClass} role="alert">
            {errors.reason}
          </p>
        )}
      </div>
      <Button type="submit" size="lg" className="w-full" busy={busy}>
        {busy ? "Sending..." : "Stop calling this number"}
      </Button>
    </form>
  );
}

/**
 * The survey's steps 2 and 3 (product rule 44): lead type and details, then the order summary and payment.
 * They load when the buyer leaves step 1, so the page's first load carries step 1 only (decision 0032).
 */
import { type RefObject, useEffect } from "react";
import { useForm } from "react-hook-form";
import { formatUsd } from "../../../../domain/format";
import type { PaymentStart } from "../../../../domain/schemas/payments";
import type { SurveyStep2 } from "../../../../domain/schemas/survey";
import { $highVolumeData } from "../../../../lib/stores";
import { Button } from "../../../../ui/button";
import { ChoiceGroup } from "../../../../ui/choice";
import { LiveTransferFields } from "../../../../ui/field-blocks";
import { Form, fieldProps, lazyZodResolver } from "../../../../ui/form";
import { Field } from "../../../../ui/input";
import { RetryNotice } from "../../../../ui/retry";
import { Spinner } from "../../../../ui/spinner";
import { Summary } from "../../../../ui/summary";
import {
  AGE_RANGES,
  highVolumeUnitCents,
  PACKAGE_RULES,
  type Quote,
  quoteSurvey,
  SURVEY_LEAD_TYPES,
  surveyUnitCents,
} from "../../pricing";
import { PaymentCard } from "../payment/PaymentCard";

/** The step schemas load with the first validation (decision 0016). */
const surveySchemas = () => import("../../../../domain/schemas/survey");

const LEAD_TYPE_TEXT: Record<SurveyStep2["leadType"], string> = {
  "Live Transfers": "Prospects handed live to your agents",
  "Call-Backs": "Scheduled calls with interested prospects",
  "Aged Leads": "Partial applications, priced by age",
};

type HeadingRef = RefObject<HTMLHeadingElement | null>;

/**
 * A step arrives after its code has loaded: its heading takes focus then (the wizard's own focus ran too
 * early), unless something arriving with it has taken focus already (the payment card's heading).
 */
function useFocusOnArrival(heading: HeadingRef) {
  useEffect(() => {
    const step = heading.current?.parentElement;
    if (step && !step.contains(document.activeElement)) heading.current?.focus();
  }, [heading]);
}

export function LeadStep({
  initial,
  busy,
  saveError,
  onBack,
  onNext,
  heading,
}: {
  initial: SurveyStep2 | null;
  busy: boolean;
  saveError: string | null;
  onBack: () => void;
  onNext: (v: SurveyStep2) => void;
  heading: HeadingRef;
}) {
  useFocusOnArrival(heading);
  const form = useForm({
    resolver: lazyZodResolver(() => surveySchemas().then((m) => m.surveyStep2Schema)),
    ...(initial ? { defaultValues: initial } : {}),
  });
  const leadType = form.watch("leadType");
  const values = form.watch();
  const ageRange = values.ageRange;
  const quantity = leadType === "Live Transfers" ? values.totalTransfers : values.totalCallbacks;
  const quote = leadType && quantity ? quoteSurvey(leadType, Number(quantity), ageRange) : null;

  return (
    <Form onSubmit={form.handleSubmit(onNext)} className="space-y-5" aria-label="Lead type and details">
      <h2 ref={heading} tabIndex={-1} className="text-xl font-bold">
        Lead type and details
      </h2>
      <ChoiceGroup
        legend="Lead type"
        options={SURVEY_LEAD_TYPES.map((type) => ({
          value: type,
          label: type,
          description: `${LEAD_TYPE_TEXT[type]} · ${type === "Aged Leads" ? `from ${formatUsd(Math.min(...AGE_RANGES.map((range) => surveyUnitCents(type, range))))}` : formatUsd(surveyUnitCents(type))} each`,
        }))}
        {...fieldProps(form, "leadType")}
      />
      {leadType === "Live Transfers" && (
        <LiveTransferFields
          form={form}
          names={{ total: "totalTransfers", perDay: "callsPerDay", hours: "transferHours" }}
          perDayLabel="Calls per day"
        />
      )}
      {(leadType === "Call-Backs" || leadType === "Aged Leads") && (
        <Field
          label={leadType === "Call-Backs" ? "Number of callbacks" : "Number of leads"}
          type="number"
          min={1}
          {...fieldProps(form, "totalCallbacks", { valueAsNumber: true })}
        />
      )}
      {leadType === "Aged Leads" && (
        <ChoiceGroup
          legend="Lead age (days)"
          options={AGE_RANGES.map((range) => ({
            value: range,
            label: `${range} days`,
            description: `${formatUsd(surveyUnitCents("Aged Leads", range))} each`,
          }))}
          {...fieldProps(form, "ageRange")}
        />
      )}
      {quote?.ok && (
        <p className="rounded-lg bg-brand-50 px-4 py-3 text-ink">
          {quote.quantity} × {formatUsd(quote.unitCents)} = <strong>{formatUsd(quote.totalCents)}</strong>
        </p>
      )}
      {leadType === "Live Transfers" && quote?.ok && <HighVolumeOffer transfers={quote.quantity} />}
      {saveError && <RetryNotice message={saveError} busy={busy} onRetry={form.handleSubmit(onNext)} />}
      <div className="flex justify-between">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button type="submit" size="lg" busy={busy}>
          {busy ? "Saving..." : "Continue to Payment"}
        </Button>
      </div>
    </Form>
  );
}

/**
 * Where the high-volume flow starts (product rule 46, `highVolumeData`): a survey for enough live transfers is offered
 * the tiered package, preloaded with its count.
 */
function HighVolumeOffer({ transfers }: { transfers: number }) {
  if (transfers < PACKAGE_RULES["high-volume"].min) return null;
  const pricePerCall = highVolumeUnitCents(transfers);
  return (
    <p className="rounded-lg border border-brand-600 px-4 py-3 text-sm text-ink">
      {transfers} transfers qualify for our High-Volume Package at {formatUsd(pricePerCall)} each.{" "}
      <a
        href="/checkout-high-volume"
        className="font-semibold text-brand-700 underline"
        onClick={() =>
          $highVolumeData.set({
            volume: transfers,
            pricePerCall: pricePerCall / 100,
            total: (transfers * pricePerCall) / 100,
            tier: "high-volume",
          })
        }
      >
        Buy them as a high-volume package
      </a>
    </p>
  );
}

interface OrderStepProps {
  lead: SurveyStep2;
  quote: Extract<Quote, { ok: true }>;
  payment: PaymentStart | null;
  paymentError: string | null;
  onRetry: () => void;
  onBack: () => void;
  heading: HeadingRef;
}

/** Step 3: what is being bought, then the payment card once the server has prepared the payment. */
export function OrderStep({ lead, quote, payment, paymentError, onRetry, onBack, heading }: OrderStepProps) {
  useFocusOnArrival(heading);
  return (
    <div className="space-y-6">
      <h2 ref={heading} tabIndex={-1} className="text-xl font-bold">
        Order summary
      </h2>
      <Summary
        rows={[
          {
            label: "Lead type",
            value: `${lead.leadType}${lead.leadType === "Aged Leads" && lead.ageRange ? ` (${lead.ageRange} days)` : ""}`,
          },
          { label: "Quantity", value: quote.quantity },
          { label: "Price each", value: formatUsd(quote.unitCents) },
        ]}
        total={formatUsd(quote.totalCents)}
      />
      {payment ? (
        <PaymentCard
          payment={payment}
          submitLabel={`Complete Payment - ${formatUsd(quote.totalCents)}`}
          outcome={{
            returnUrl: `/login`,
            successDescription: "Thank you! A confirmation e-mail is on its way. Log in with your new account.",
          }}
        />
      ) : paymentError ? (
        <RetryNotice message={paymentError} onRetry={onRetry} />
      ) : (
        <div className="py-8 text-center">
          <Spinner label="Setting up payment..." />
        </div>
      )}
      <Button variant="secondary" onClick={onBack}>
        Back
      </Button>
    </div>
  );
}

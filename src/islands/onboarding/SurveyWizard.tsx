/**
 * /survey (spec §2 "Survey", §4, §5): agency info → lead type and details → order summary and payment.
 * Leaving step 2 saves the survey (creating the buyer's account), then prepares the payment.
 */
import { type RefObject, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import {
  AGE_RANGES,
  formatUsd,
  highVolumeUnitCents,
  PACKAGE_RULES,
  quoteSurvey,
  SURVEY_LEAD_TYPES,
  surveyUnitCents,
} from "../../domain/pricing";
import type { PaymentStart } from "../../domain/schemas/payments";
import type { SurveyStep1, SurveyStep2 } from "../../domain/schemas/survey";
import { SURVEY_ROLES, surveyQuantity } from "../../domain/survey";
import { ApiError, api, call, errorMessage } from "../../lib/api";
import { $highVolumeData } from "../../lib/stores";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { ChoiceGroup } from "../../ui/choice";
import { useFocusOnChange } from "../../ui/focus";
import { Form, fieldProps, lazyZodResolver } from "../../ui/form";
import { Field } from "../../ui/input";
import { RetryNotice } from "../../ui/retry";
import { Spinner } from "../../ui/spinner";
import { Summary } from "../../ui/summary";
import { toast } from "../../ui/toast";
import { AppProviders } from "../AppProviders";
import { PaymentCard } from "../payment/PaymentCard";
import { accountResolver, SavedAccount } from "./saved-account";
import { WizardProgress } from "./WizardProgress";

/** The step schemas load with the first validation (decision 0016). */
const surveySchemas = () => import("../../domain/schemas/survey");

const LEAD_TYPE_TEXT: Record<SurveyStep2["leadType"], string> = {
  "Live Transfers": "Prospects handed live to your agents",
  "Call-Backs": "Scheduled calls with interested prospects",
  "Aged Leads": "Partial applications, priced by age",
};

/** The account the first save created: its username and e-mail stay, the wizard only updates answers. */
interface Saved {
  surveyId: string;
  username: string;
  email: string;
}

type HeadingRef = RefObject<HTMLHeadingElement | null>;

function AgencyStep({
  values,
  saved,
  onNext,
  form,
  heading,
}: {
  values: SurveyStep1 | null;
  saved: Saved | null;
  onNext: (v: SurveyStep1) => void;
  form: ReturnType<typeof useStep1Form>;
  heading: HeadingRef;
}) {
  return (
    <Form onSubmit={form.handleSubmit(onNext)} className="space-y-5" aria-label="Agency information">
      <h2 ref={heading} tabIndex={-1} className="text-xl font-bold">
        Agency information
      </h2>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="First name" autoComplete="given-name" {...fieldProps(form, "firstName")} />
        <Field label="Last name" autoComplete="family-name" {...fieldProps(form, "lastName")} />
      </div>
      <Field label="Agency name" autoComplete="organization" {...fieldProps(form, "agencyName")} />
      <ChoiceGroup
        legend="Your role"
        columns={2}
        options={SURVEY_ROLES.map((role) => ({ value: role, label: role }))}
        {...fieldProps(form, "role")}
      />
      {saved ? (
        <>
          <Field label="Phone" type="tel" autoComplete="tel" {...fieldProps(form, "phone")} />
          <SavedAccount username={saved.username} email={saved.email} />
        </>
      ) : (
        <>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Phone" type="tel" autoComplete="tel" {...fieldProps(form, "phone")} />
            <Field label="Email" type="email" autoComplete="email" {...fieldProps(form, "email")} />
          </div>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Username"
              autoComplete="username"
              hint="You will log in with it after paying."
              {...fieldProps(form, "username")}
            />
            <Field label="Password" type="password" autoComplete="new-password" {...fieldProps(form, "password")} />
          </div>
        </>
      )}
      <div className="flex justify-end">
        <Button type="submit" size="lg">
          {values ? "Continue" : "Next"}
        </Button>
      </div>
    </Form>
  );
}

function useStep1Form(saved: RefObject<Saved | null>) {
  return useForm<SurveyStep1>({
    resolver: accountResolver(
      saved,
      lazyZodResolver(() => surveySchemas().then((m) => m.surveyStep1Schema)),
      lazyZodResolver(() => surveySchemas().then((m) => m.surveyProfileSchema)) as never,
    ),
  });
}

function LeadStep({
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
        <div className="grid gap-5 sm:grid-cols-3">
          <Field
            label="Total transfers"
            type="number"
            min={1}
            {...fieldProps(form, "totalTransfers", { valueAsNumber: true })}
          />
          <Field
            label="Calls per day"
            type="number"
            min={1}
            {...fieldProps(form, "callsPerDay", { valueAsNumber: true })}
          />
          <Field label="Transfer hours" placeholder="e.g. 9am-5pm EST" {...fieldProps(form, "transferHours")} />
        </div>
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
 * Where the high-volume flow starts (spec §3 `highVolumeData`): a survey for enough live transfers is offered
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

function Wizard() {
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [agency, setAgency] = useState<SurveyStep1 | null>(null);
  const [lead, setLead] = useState<SurveyStep2 | null>(null);
  const [payment, setPayment] = useState<PaymentStart | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [paymentError, setPaymentError] = useState<string | null>(null);
  const [saved, setSaved] = useState<Saved | null>(null);
  const savedRef = useRef<Saved | null>(null);
  savedRef.current = saved;
  const agencyForm = useStep1Form(savedRef);
  const heading = useFocusOnChange<HTMLHeadingElement>(step);

  async function preparePayment(agencyValues: SurveyStep1, leadValues: SurveyStep2, surveyId: string) {
    const quote = quoteSurvey(leadValues.leadType, surveyQuantity(leadValues), leadValues.ageRange);
    if (!quote.ok) return;
    setPaymentError(null);
    try {
      setPayment(
        await call(
          api["create-payment-intent"].$post({
            json: {
              amount: quote.totalCents / 100,
              leadType: leadValues.leadType,
              quantity: quote.quantity,
              ...(leadValues.ageRange && leadValues.leadType === "Aged Leads" ? { ageRange: leadValues.ageRange } : {}),
              email: agencyValues.email,
              surveyId,
            },
          }),
        ),
      );
    } catch (error) {
      setPaymentError(errorMessage(error, "Failed to initialize payment. Please try again."));
    }
  }

  /** Saves (first time: creates the account; later: updates the same survey), then prepares the payment. */
  async function saveAndContinue(leadValues: SurveyStep2) {
    if (!agency) return;
    setLead(leadValues);
    setSaveError(null);
    const quote = quoteSurvey(leadValues.leadType, surveyQuantity(leadValues), leadValues.ageRange);
    setSaving(true);
    let surveyId: string;
    try {
      const answer = await call(
        api.survey.$post({
          json: {
            ...agency,
            ...leadValues,
            totalPrice: quote.ok ? quote.totalCents : 0,
            ...(saved ? { surveyId: saved.surveyId } : {}),
          },
        }),
      );
      surveyId = answer.surveyId;
      setSaved(saved ?? { surveyId, username: agency.username, email: agency.email });
      toast({
        title: "Information Saved",
        description: "Your information has been recorded. Please proceed to payment.",
        variant: "success",
      });
    } catch (error) {
      setSaving(false);
      if (error instanceof ApiError && (error.status === 409 || error.fieldErrors.password)) {
        // D4: back to step 1 with the message under the field that is taken.
        setStep(1);
        // A taken username or e-mail (409), or a password the server refuses as too common (400).
        const field = error.fieldErrors.password ? "password" : error.fieldErrors.email ? "email" : "username";
        setTimeout(() => agencyForm.setError(field, { message: error.serverMessage }, { shouldFocus: true }));
        return;
      }
      // No account or stale answers: payment waits until the save succeeds.
      setSaveError(errorMessage(error, "We could not save your information. Please try again."));
      return;
    }
    setSaving(false);
    setPayment(null);
    setStep(3);
    await preparePayment(agency, leadValues, surveyId);
  }

  const quote = lead ? quoteSurvey(lead.leadType, surveyQuantity(lead), lead.ageRange) : null;

  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Final Expense Lead Survey</h1>
        <p className="mt-2 text-ink-soft">Tell us about your agency and the leads you need. It takes two minutes.</p>
      </div>
      <WizardProgress step={step} total={3} />
      <Card>
        {step === 1 && (
          <AgencyStep
            values={agency}
            saved={saved}
            form={agencyForm}
            heading={heading}
            onNext={(values) => {
              setAgency(values);
              setStep(2);
            }}
          />
        )}
        {step === 2 && (
          <LeadStep
            initial={lead}
            busy={saving}
            saveError={saveError}
            heading={heading}
            onBack={() => setStep(1)}
            onNext={saveAndContinue}
          />
        )}
        {step === 3 && quote?.ok && lead && agency && saved && (
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
                  returnUrl: `${window.location.origin}/login`,
                  successDescription: "Thank you! A confirmation e-mail is on its way. Log in with your new account.",
                }}
              />
            ) : paymentError ? (
              <RetryNotice message={paymentError} onRetry={() => preparePayment(agency, lead, saved.surveyId)} />
            ) : (
              <div className="py-8 text-center">
                <Spinner label="Setting up payment..." />
              </div>
            )}
            <Button variant="secondary" onClick={() => setStep(2)}>
              Back
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}

export default function SurveyWizard() {
  return (
    <AppProviders>
      <Wizard />
    </AppProviders>
  );
}

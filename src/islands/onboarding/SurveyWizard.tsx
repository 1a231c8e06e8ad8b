/**
 * /survey (spec §2 "Survey", §4, §5): agency info → lead type and details → order summary and payment.
 * Leaving step 2 saves the survey (creating the buyer's account), then prepares the payment.
 */
import { useState } from "react";
import { useForm } from "react-hook-form";
import { AGE_RANGES, formatUsd, quoteSurvey, SURVEY_LEAD_TYPES, surveyUnitCents } from "../../domain/pricing";
import type { PaymentStart } from "../../domain/schemas/payments";
import type { SurveyStep1, SurveyStep2 } from "../../domain/schemas/survey";
import { SURVEY_ROLES, surveyQuantity } from "../../domain/survey";
import { ApiError, apiRequest } from "../../lib/api";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { ChoiceGroup } from "../../ui/choice";
import { Form, fieldProps, lazyZodResolver } from "../../ui/form";
import { Field } from "../../ui/input";
import { Spinner } from "../../ui/spinner";
import { Summary } from "../../ui/summary";
import { toast } from "../../ui/toast";
import { AppProviders } from "../AppProviders";
import { PaymentCard } from "../payment/PaymentCard";
import { WizardProgress } from "./WizardProgress";

/** The step schemas load with the first validation (decision 0016). */
const surveySchemas = () => import("../../domain/schemas/survey");

const LEAD_TYPE_TEXT: Record<SurveyStep2["leadType"], string> = {
  "Live Transfers": "Prospects handed live to your agents",
  "Call-Backs": "Scheduled calls with interested prospects",
  "Aged Leads": "Partial applications, priced by age",
};

function AgencyStep({
  values,
  onNext,
  form,
}: {
  values: SurveyStep1 | null;
  onNext: (v: SurveyStep1) => void;
  form: ReturnType<typeof useStep1Form>;
}) {
  return (
    <Form onSubmit={form.handleSubmit(onNext)} className="space-y-5" aria-label="Agency information">
      <h2 className="text-xl font-bold">Agency information</h2>
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
      <div className="flex justify-end">
        <Button type="submit" size="lg">
          {values ? "Continue" : "Next"}
        </Button>
      </div>
    </Form>
  );
}

function useStep1Form(initial: SurveyStep1 | null) {
  return useForm<SurveyStep1>({
    resolver: lazyZodResolver(() => surveySchemas().then((m) => m.surveyStep1Schema)),
    ...(initial ? { defaultValues: initial } : {}),
  });
}

function LeadStep({
  initial,
  busy,
  onBack,
  onNext,
}: {
  initial: SurveyStep2 | null;
  busy: boolean;
  onBack: () => void;
  onNext: (v: SurveyStep2) => void;
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
      <h2 className="text-xl font-bold">Lead type and details</h2>
      <ChoiceGroup
        legend="Lead type"
        options={SURVEY_LEAD_TYPES.map((type) => ({
          value: type,
          label: type,
          description: `${LEAD_TYPE_TEXT[type]} · ${type === "Aged Leads" ? "from $2.00" : formatUsd(surveyUnitCents(type))} each`,
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

function Wizard() {
  const [step, setStep] = useState<1 | 2 | 3>(1);
  const [agency, setAgency] = useState<SurveyStep1 | null>(null);
  const [lead, setLead] = useState<SurveyStep2 | null>(null);
  const [payment, setPayment] = useState<PaymentStart | null>(null);
  const [saving, setSaving] = useState(false);
  const [paymentFailed, setPaymentFailed] = useState(false);
  const [surveyId, setSurveyId] = useState<string | null>(null);
  const agencyForm = useStep1Form(agency);

  async function preparePayment(agencyValues: SurveyStep1, leadValues: SurveyStep2, surveyId: string | null) {
    const quote = quoteSurvey(leadValues.leadType, surveyQuantity(leadValues), leadValues.ageRange);
    if (!quote.ok) return;
    setPaymentFailed(false);
    try {
      setPayment(
        await apiRequest<PaymentStart>("POST", "/api/create-payment-intent", {
          amount: quote.totalCents / 100,
          leadType: leadValues.leadType,
          quantity: quote.quantity,
          ...(leadValues.ageRange && leadValues.leadType === "Aged Leads" ? { ageRange: leadValues.ageRange } : {}),
          email: agencyValues.email,
          ...(surveyId ? { surveyId } : {}),
        }),
      );
    } catch {
      setPaymentFailed(true);
      toast({ title: "Error", description: "Failed to initialize payment. Please try again.", variant: "destructive" });
    }
  }

  async function saveAndContinue(leadValues: SurveyStep2) {
    if (!agency) return;
    setLead(leadValues);
    const quote = quoteSurvey(leadValues.leadType, surveyQuantity(leadValues), leadValues.ageRange);
    setSaving(true);
    let savedSurveyId: string | null = null;
    try {
      const saved = await apiRequest<{ surveyId: string }>("POST", "/api/survey", {
        ...agency,
        ...leadValues,
        totalPrice: quote.ok ? quote.totalCents : 0,
      });
      savedSurveyId = saved.surveyId;
      toast({
        title: "Information Saved",
        description: "Your information has been recorded. Please proceed to payment.",
        variant: "success",
      });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // D4: back to step 1 with the message under the field that is taken.
        setSaving(false);
        setStep(1);
        const field = error.fieldErrors.email ? "email" : "username";
        setTimeout(() => agencyForm.setError(field, { message: error.serverMessage }, { shouldFocus: true }));
        return;
      }
      toast({ title: "Warning", description: "Failed to save information, but you can still proceed to payment." });
    }
    setSaving(false);
    setSurveyId(savedSurveyId);
    setStep(3);
    await preparePayment(agency, leadValues, savedSurveyId);
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
            form={agencyForm}
            onNext={(values) => {
              setAgency(values);
              setStep(2);
            }}
          />
        )}
        {step === 2 && <LeadStep initial={lead} busy={saving} onBack={() => setStep(1)} onNext={saveAndContinue} />}
        {step === 3 && quote?.ok && lead && (
          <div className="space-y-6">
            <h2 className="text-xl font-bold">Order summary</h2>
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
            ) : paymentFailed ? (
              <div className="text-center">
                <p className="text-ink-soft">We could not set up the payment.</p>
                <Button className="mt-3" onClick={() => agency && preparePayment(agency, lead, surveyId)}>
                  Try again
                </Button>
              </div>
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

/**
 * /survey (product rules 42, 44): agency info → lead type and details → order summary and payment.
 * Leaving step 2 saves the survey (creating the buyer's account), then prepares the payment.
 */
import { lazy, type RefObject, Suspense, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { quoteSurvey } from "../../domain/pricing";
import type { PaymentStart } from "../../domain/schemas/payments";
import type { SurveyStep1, SurveyStep2 } from "../../domain/schemas/survey";
import { SURVEY_ROLES, surveyQuantity } from "../../domain/survey";
import { ApiError, api, call, errorMessage } from "../../lib/api";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { ChoiceGroup } from "../../ui/choice";
import { useFocusOnChange } from "../../ui/focus";
import { Form, fieldProps, lazyZodResolver } from "../../ui/form";
import { Field } from "../../ui/input";
import { Spinner } from "../../ui/spinner";
import { toast } from "../../ui/toast";
import { AppProviders } from "../AppProviders";
import { accountResolver, SavedAccount } from "./saved-account";
import { WizardProgress } from "./WizardProgress";

/** The step schemas load with the first validation (decision 0016). */
const surveySchemas = () => import("../../domain/schemas/survey");

// Steps 2 and 3 load when the buyer leaves step 1: the first screen is step 1 (decision 0032).
const LeadStep = lazy(() => import("./SurveySteps").then((m) => ({ default: m.LeadStep })));
const OrderStep = lazy(() => import("./SurveySteps").then((m) => ({ default: m.OrderStep })));

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
        // Product rule 42: back to step 1 with the message under the field that is taken.
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
          <Suspense fallback={<Spinner label="Loading..." />}>
            <LeadStep
              initial={lead}
              busy={saving}
              saveError={saveError}
              heading={heading}
              onBack={() => setStep(1)}
              onNext={saveAndContinue}
            />
          </Suspense>
        )}
        {step === 3 && quote?.ok && lead && agency && saved && (
          <Suspense fallback={<Spinner label="Loading..." />}>
            <OrderStep
              lead={lead}
              quote={quote}
              payment={payment}
              paymentError={paymentError}
              onRetry={() => preparePayment(agency, lead, saved.surveyId)}
              onBack={() => setStep(2)}
              heading={heading}
            />
          </Suspense>
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

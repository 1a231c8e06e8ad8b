/**
 * /survey (product rules 42, 44): agency info → lead type and details → order summary and payment.
 * Leaving step 2 saves the survey (creating the buyer's account), then prepares the payment. The steps
 * move through the wizards' reducer (wizard-state.ts); a saved survey resumes after a refresh.
 */
import { lazy, type RefObject, Suspense, useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { SurveyStep1, SurveyStep2 } from "../../../../domain/schemas/survey";
import { SURVEY_ROLES, surveyQuantity } from "../../../../domain/survey";
import { AppProviders } from "../../../../islands/AppProviders";
import { ApiError, api, call, errorMessage } from "../../../../lib/api";
import { Button } from "../../../../ui/button";
import { Card } from "../../../../ui/card";
import { ChoiceGroup } from "../../../../ui/choice";
import { PhoneField } from "../../../../ui/field-blocks";
import { useFocusOnChange } from "../../../../ui/focus";
import { Form, fieldProps, lazyZodResolver } from "../../../../ui/form";
import { Field } from "../../../../ui/input";
import { Spinner } from "../../../../ui/spinner";
import { toast } from "../../../../ui/toast";
import { quoteSurvey } from "../../pricing";
import { accountResolver, ResumeError, SavedAccountNote } from "./saved-account";
import { WizardProgress } from "./WizardProgress";
import { loadSavedSurvey, refusedAccountField, type SavedAccount, useWizard } from "./wizard-state";

/** The step schemas load with the first validation (decision 0016). */
const surveySchemas = () => import("../../../../domain/schemas/survey");

// Steps 2 and 3 load when the buyer leaves step 1: the first screen is step 1 (decision 0032).
const LeadStep = lazy(() => import("./SurveySteps").then((m) => ({ default: m.LeadStep })));
const OrderStep = lazy(() => import("./SurveySteps").then((m) => ({ default: m.OrderStep })));

type HeadingRef = RefObject<HTMLHeadingElement | null>;

function AgencyStep({
  values,
  saved,
  onNext,
  form,
  heading,
}: {
  values: SurveyStep1 | null;
  saved: SavedAccount | null;
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
          <PhoneField form={form} name="phone" />
          <SavedAccountNote username={saved.username} email={saved.email} />
        </>
      ) : (
        <>
          <div className="grid gap-5 sm:grid-cols-2">
            <PhoneField form={form} name="phone" />
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

function useStep1Form(saved: RefObject<SavedAccount | null>) {
  return useForm<SurveyStep1>({
    resolver: accountResolver(
      saved,
      lazyZodResolver(() => surveySchemas().then((m) => m.surveyStep1Schema)),
      lazyZodResolver(() => surveySchemas().then((m) => m.surveyProfileSchema)) as never,
    ),
  });
}

interface WizardProps {
  /**
   * The page's query string as the server received it. Once step 2 has saved the survey (and created the
   * account), the address reads `?survey=ID&step=N`: a refresh resumes that saved survey on that step.
   */
  search: string;
}

type SurveyStep = 1 | 2 | 3;

/** Which step the address names (`step=`), for a saved survey; the payment step when it names none. */
function resumeStep(params: URLSearchParams): SurveyStep {
  const step = Number(params.get("step"));
  return step === 1 || step === 2 ? step : 3;
}

function Wizard({ search }: WizardProps) {
  const [params] = useState(() => new URLSearchParams(search));
  const resumeId = params.get("survey");
  const [state, dispatch] = useWizard<SurveyStep1, SurveyStep2>(resumeId !== null);
  const { step, agency, lead, saved } = state;
  const savedRef = useRef<SavedAccount | null>(null);
  savedRef.current = saved;
  const agencyForm = useStep1Form(savedRef);
  const heading = useFocusOnChange<HTMLHeadingElement>(step);

  async function preparePayment(leadValues: SurveyStep2, account: SavedAccount) {
    const quote = quoteSurvey(leadValues.leadType, surveyQuantity(leadValues), leadValues.ageRange);
    if (!quote.ok) return;
    dispatch({ type: "preparing-payment" });
    try {
      const payment = await call(
        api["create-payment-intent"].$post({
          json: {
            amount: quote.totalCents / 100,
            leadType: leadValues.leadType,
            quantity: quote.quantity,
            ...(leadValues.ageRange && leadValues.leadType === "Aged Leads" ? { ageRange: leadValues.ageRange } : {}),
            email: account.email,
            surveyId: account.surveyId,
          },
        }),
      );
      dispatch({ type: "payment", payment });
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        // "Only 37 leads of 90-180 days are available": shown where the buyer continues to payment.
        dispatch({ type: "payment-refused", error: error.serverMessage });
        return;
      }
      dispatch({
        type: "payment-failed",
        error: errorMessage(error, "Failed to initialize payment. Please try again."),
      });
    }
  }

  // A saved survey's address names it and the step shown: a refresh comes back to the same place.
  useEffect(() => {
    if (saved)
      window.history.replaceState(null, "", `/survey?survey=${encodeURIComponent(saved.surveyId)}&step=${step}`);
  }, [saved, step]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on arrival
  useEffect(() => {
    if (!resumeId) return;
    loadSavedSurvey(resumeId)
      .then((survey) => {
        if (survey.kind !== "survey") throw new Error("We could not load your saved survey.");
        const answers = survey.answers as SurveyStep1 & SurveyStep2;
        const account = { surveyId: survey.surveyId, username: survey.username, email: survey.email };
        const at = resumeStep(params);
        agencyForm.reset(answers);
        dispatch({ type: "resumed", agency: answers, lead: answers, saved: account, step: at });
        return at === 3 ? preparePayment(answers, account) : undefined;
      })
      .catch((error: Error) => dispatch({ type: "resume-failed", error: error.message }));
  }, []);

  /** Saves (first time: creates the account; later: updates the same survey), then prepares the payment. */
  async function saveAndContinue(leadValues: SurveyStep2) {
    if (!agency) return;
    dispatch({ type: "saving", lead: leadValues });
    const quote = quoteSurvey(leadValues.leadType, surveyQuantity(leadValues), leadValues.ageRange);
    let account: SavedAccount;
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
      account = saved ?? { surveyId: answer.surveyId, username: agency.username, email: agency.email };
      toast({
        title: "Information Saved",
        description: "Your information has been recorded. Please proceed to payment.",
        variant: "success",
      });
    } catch (error) {
      const field = refusedAccountField(error);
      if (field && error instanceof ApiError) {
        // Product rule 42: back to step 1 with the message under the field that is taken.
        dispatch({ type: "account-refused" });
        setTimeout(() => agencyForm.setError(field, { message: error.serverMessage }, { shouldFocus: true }));
        return;
      }
      // No account or stale answers: payment waits until the save succeeds.
      dispatch({
        type: "save-failed",
        error: errorMessage(error, "We could not save your information. Please try again."),
      });
      return;
    }
    dispatch({ type: "saved", saved: account, step: 3 });
    await preparePayment(leadValues, account);
  }

  const quote = lead ? quoteSurvey(lead.leadType, surveyQuantity(lead), lead.ageRange) : null;

  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Final Expense Lead Survey</h1>
        <p className="mt-2 text-ink-soft">Tell us about your agency and the leads you need. It takes two minutes.</p>
      </div>
      <WizardProgress step={step} total={3} />
      {state.resumeError && <ResumeError message={state.resumeError} next={`/survey${search}`} />}
      <Card>
        {state.resuming ? (
          <Spinner label="Loading your saved survey..." />
        ) : step === 1 ? (
          <AgencyStep
            values={agency}
            saved={saved}
            form={agencyForm}
            heading={heading}
            onNext={(values) => dispatch({ type: "agency", values })}
          />
        ) : step === 2 ? (
          <Suspense fallback={<Spinner label="Loading..." />}>
            <LeadStep
              initial={lead}
              busy={state.saving}
              saveError={state.saveError}
              heading={heading}
              onBack={() => dispatch({ type: "go", step: 1 })}
              onNext={saveAndContinue}
            />
          </Suspense>
        ) : (
          quote?.ok &&
          lead &&
          saved && (
            <Suspense fallback={<Spinner label="Loading..." />}>
              <OrderStep
                lead={lead}
                quote={quote}
                payment={state.payment}
                paymentError={state.paymentError}
                onRetry={() => preparePayment(lead, saved)}
                onBack={() => dispatch({ type: "go", step: 2 })}
                heading={heading}
              />
            </Suspense>
          )
        )}
      </Card>
    </div>
  );
}

export default function SurveyWizard(props: WizardProps) {
  return (
    <AppProviders>
      <Wizard {...props} />
    </AppProviders>
  );
}

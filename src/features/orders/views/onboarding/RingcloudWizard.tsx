/**
 * /ringcloud (product rules 42, 44): Agency Info → Lead Preferences → Payment, where the
 * last step is /ringcloud-checkout. Submitting step 2 creates the account (role Insurance Agent).
 */
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { formatUsd } from "../../../../domain/format";
import type { RingcloudStep1, RingcloudStep2 } from "../../../../domain/schemas/survey";
import { CALLBACK_PREFERENCES } from "../../../../domain/survey";
import { AppProviders } from "../../../../islands/AppProviders";
import { ApiError, api, call, errorMessage } from "../../../../lib/api";
import { Button } from "../../../../ui/button";
import { Card } from "../../../../ui/card";
import { ChoiceGroup } from "../../../../ui/choice";
import { LiveTransferFields, PhoneField, StateField } from "../../../../ui/field-blocks";
import { useFocusOnChange } from "../../../../ui/focus";
import { Form, fieldProps, lazyZodResolver } from "../../../../ui/form";
import { Field } from "../../../../ui/input";
import { RetryNotice } from "../../../../ui/retry";
import { Spinner } from "../../../../ui/spinner";
import { toast } from "../../../../ui/toast";
import { AGE_RANGES, RINGCLOUD_LEAD_TYPES, ringcloudUnitCents } from "../../pricing";
import { RINGCLOUD_PACKAGES } from "./ringcloud-packages";
import { accountResolver, ResumeError, SavedAccountNote } from "./saved-account";
import { WizardProgress } from "./WizardProgress";
import { loadSavedSurvey, refusedAccountField, type SavedAccount, useWizard } from "./wizard-state";

/** The step schemas load with the first validation (decision 0016). */
const surveySchemas = () => import("../../../../domain/schemas/survey");

const STEP_LABELS = ["Agency Info", "Lead Preferences", "Payment"] as const;

interface WizardProps {
  /** The page's query string as the server received it: `?survey=ID` ('Back to Survey' on the checkout) resumes that saved survey. */
  search: string;
}

function Wizard({ search }: WizardProps) {
  const [resumeId] = useState(() => new URLSearchParams(search).get("survey"));
  const [state, dispatch] = useWizard<RingcloudStep1, RingcloudStep2>(resumeId !== null);
  const { step, agency, saved } = state;
  const savedRef = useRef<SavedAccount | null>(null);
  savedRef.current = saved;
  const agencyForm = useForm<RingcloudStep1>({
    resolver: accountResolver(
      savedRef,
      lazyZodResolver(() => surveySchemas().then((m) => m.ringcloudStep1Schema)),
      lazyZodResolver(() => surveySchemas().then((m) => m.ringcloudProfileSchema)) as never,
    ),
  });
  const leadForm = useForm({ resolver: lazyZodResolver(() => surveySchemas().then((m) => m.ringcloudStep2Schema)) });
  const heading = useFocusOnChange<HTMLHeadingElement>(step);
  const leadType = leadForm.watch("leadType");

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on arrival
  useEffect(() => {
    if (!resumeId) return;
    loadSavedSurvey(resumeId)
      .then((survey) => {
        const answers = survey.answers as RingcloudStep1 & RingcloudStep2;
        agencyForm.reset(answers);
        leadForm.reset(answers);
        const account = { surveyId: survey.surveyId, username: survey.username, email: survey.email };
        dispatch({ type: "resumed", agency: answers, lead: answers, saved: account, step: 2 });
      })
      .catch((error: Error) => dispatch({ type: "resume-failed", error: error.message }));
  }, []);

  async function submit(preferences: RingcloudStep2) {
    if (!agency) return;
    dispatch({ type: "saving", lead: preferences });
    try {
      const { checkout } = await call(
        api["ringcloud-survey"].$post({
          json: {
            ...agency,
            ...preferences,
            role: "Insurance Agent",
            ...(saved ? { surveyId: saved.surveyId } : {}),
          },
        }),
      );
      const account = saved ?? { surveyId: checkout.survey, username: agency.username, email: agency.email };
      dispatch({ type: "saved", saved: account, step: 2 });
      toast({ title: "Survey Submitted Successfully", description: "Redirecting to payment...", variant: "success" });
      const params = new URLSearchParams(Object.entries(checkout).map(([key, value]) => [key, String(value)]));
      window.location.assign(`/ringcloud-checkout?${params}`);
    } catch (error) {
      const field = refusedAccountField(error);
      if (field && error instanceof ApiError) {
        dispatch({ type: "account-refused" });
        setTimeout(() => agencyForm.setError(field, { message: error.serverMessage }, { shouldFocus: true }));
        return;
      }
      dispatch({ type: "save-failed", error: errorMessage(error, "Failed to submit survey.") });
    }
  }

  if (state.resuming) {
    return (
      <div className="py-24 text-center">
        <Spinner label="Loading your saved survey..." />
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Get Started with Live Transfers</h1>
        <p className="mt-2 text-ink-soft">Tell us about your agency and how you want your leads delivered.</p>
      </div>
      <WizardProgress step={step} total={3} labels={STEP_LABELS} />
      {state.resumeError && <ResumeError message={state.resumeError} next={`/ringcloud${search}`} />}
      <Card>
        {step === 1 ? (
          <Form
            key="agency-info"
            aria-label="Agency Info"
            className="space-y-5"
            onSubmit={agencyForm.handleSubmit((values) => dispatch({ type: "agency", values }))}
          >
            <h2 ref={heading} tabIndex={-1} className="text-xl font-bold">
              Agency Info
            </h2>
            <Field label="Agency name" autoComplete="organization" {...fieldProps(agencyForm, "agencyName")} />
            <div className="grid gap-5 sm:grid-cols-2">
              <Field label="First name" autoComplete="given-name" {...fieldProps(agencyForm, "firstName")} />
              <Field label="Last name" autoComplete="family-name" {...fieldProps(agencyForm, "lastName")} />
            </div>
            <div className="grid gap-5 sm:grid-cols-2">
              {!saved && <Field label="Email" type="email" autoComplete="email" {...fieldProps(agencyForm, "email")} />}
              <PhoneField form={agencyForm} name="phone" />
            </div>
            <StateField form={agencyForm} name="state" />
            {saved ? (
              <SavedAccountNote username={saved.username} email={saved.email} />
            ) : (
              <>
                <Field label="Username" autoComplete="username" {...fieldProps(agencyForm, "username")} />
                <div className="grid gap-5 sm:grid-cols-2">
                  <Field
                    label="Password"
                    type="password"
                    autoComplete="new-password"
                    {...fieldProps(agencyForm, "password")}
                  />
                  <Field
                    label="Confirm password"
                    type="password"
                    autoComplete="new-password"
                    {...fieldProps(agencyForm, "confirmPassword")}
                  />
                </div>
              </>
            )}
            <div className="flex justify-end">
              <Button type="submit" size="lg">
                Next
              </Button>
            </div>
          </Form>
        ) : (
          <Form
            key="lead-preferences"
            aria-label="Lead Preferences"
            className="space-y-5"
            onSubmit={leadForm.handleSubmit(submit)}
          >
            <h2 ref={heading} tabIndex={-1} className="text-xl font-bold">
              Lead Preferences
            </h2>
            <ChoiceGroup
              legend="Lead type"
              options={RINGCLOUD_LEAD_TYPES.map((type) => ({
                value: type,
                label: RINGCLOUD_PACKAGES[type].choice,
                description:
                  type === "partial_apps"
                    ? `${AGE_RANGES.map((range) => formatUsd(ringcloudUnitCents(type, range))).join(" / ")} each by age`
                    : `${formatUsd(ringcloudUnitCents(type))} each`,
              }))}
              {...fieldProps(leadForm, "leadType")}
            />
            {leadType === "live_transfers" && (
              <LiveTransferFields
                form={leadForm}
                names={{
                  total: "totalTransfers",
                  perDay: "transfersPerDay",
                  hours: "transferHours",
                  phone: "transferPhone",
                }}
                perDayLabel="Transfers per day"
              />
            )}
            {leadType === "call_backs" && (
              <>
                <Field
                  label="Number of call-backs"
                  type="number"
                  min={1}
                  {...fieldProps(leadForm, "totalTransfers", { valueAsNumber: true })}
                />
                <ChoiceGroup
                  legend="Callback preference"
                  columns={4}
                  options={CALLBACK_PREFERENCES.map((value) => ({
                    value,
                    label: value[0]?.toUpperCase() + value.slice(1),
                  }))}
                  {...fieldProps(leadForm, "callbackPreference")}
                />
              </>
            )}
            {leadType === "partial_apps" && (
              <>
                <Field
                  label="Number of leads"
                  type="number"
                  min={1}
                  {...fieldProps(leadForm, "totalTransfers", { valueAsNumber: true })}
                />
                <ChoiceGroup
                  legend="Lead age (days)"
                  options={AGE_RANGES.map((range) => ({
                    value: range,
                    label: `${range} days`,
                    description: `${formatUsd(ringcloudUnitCents("partial_apps", range))} each`,
                  }))}
                  {...fieldProps(leadForm, "ageRange")}
                />
              </>
            )}
            <Field
              label="States you work in"
              placeholder="e.g. TX, FL, GA"
              {...fieldProps(leadForm, "workingStates")}
            />
            {state.saveError && (
              <RetryNotice message={state.saveError} busy={state.saving} onRetry={leadForm.handleSubmit(submit)} />
            )}
            <div className="flex justify-between">
              <Button variant="secondary" onClick={() => dispatch({ type: "go", step: 1 })}>
                Back
              </Button>
              <Button type="submit" size="lg" busy={state.saving}>
                {state.saving ? "Submitting..." : "Continue to Payment"}
              </Button>
            </div>
          </Form>
        )}
      </Card>
    </div>
  );
}

export default function RingcloudWizard(props: WizardProps) {
  return (
    <AppProviders>
      <Wizard {...props} />
    </AppProviders>
  );
}

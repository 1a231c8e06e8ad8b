/**
 * /ringcloud (product rules 42, 44): Agency Info → Lead Preferences → Payment, where the
 * last step is /ringcloud-checkout. Submitting step 2 creates the account (role Insurance Agent).
 */
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { AGE_RANGES, formatUsd, RINGCLOUD_LEAD_TYPES, ringcloudUnitCents } from "../../domain/pricing";
import type { RingcloudStep1, RingcloudStep2 } from "../../domain/schemas/survey";
import { CALLBACK_PREFERENCES } from "../../domain/survey";
import { US_STATES } from "../../domain/us-states";
import { type Answer, ApiError, api, call, errorMessage } from "../../lib/api";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { ChoiceGroup } from "../../ui/choice";
import { useFocusOnChange } from "../../ui/focus";
import { Form, fieldProps, lazyZodResolver } from "../../ui/form";
import { Field, SelectField } from "../../ui/input";
import { RetryNotice } from "../../ui/retry";
import { Spinner } from "../../ui/spinner";
import { toast } from "../../ui/toast";
import { AppProviders } from "../AppProviders";
import { RINGCLOUD_PACKAGES } from "./ringcloud-packages";
import { accountResolver, SavedAccount } from "./saved-account";
import { WizardProgress } from "./WizardProgress";

/** The step schemas load with the first validation (decision 0016). */
const surveySchemas = () => import("../../domain/schemas/survey");

const STEP_LABELS = ["Agency Info", "Lead Preferences", "Payment"] as const;

type Saved = Pick<Answer<(typeof api.surveys)[":id"]["$get"]>, "surveyId" | "username" | "email">;

interface WizardProps {
  /** The page's query string as the server received it: `?survey=ID` ('Back to Survey' on the checkout) resumes that saved survey. */
  search: string;
}

function Wizard({ search }: WizardProps) {
  const [resumeId] = useState(() => new URLSearchParams(search).get("survey"));
  const [step, setStep] = useState<1 | 2>(1);
  const [saved, setSaved] = useState<Saved | null>(null);
  const savedRef = useRef<Saved | null>(null);
  savedRef.current = saved;
  const agencyForm = useForm<RingcloudStep1>({
    resolver: accountResolver(
      savedRef,
      lazyZodResolver(() => surveySchemas().then((m) => m.ringcloudStep1Schema)),
      lazyZodResolver(() => surveySchemas().then((m) => m.ringcloudProfileSchema)) as never,
    ),
  });
  const leadForm = useForm({ resolver: lazyZodResolver(() => surveySchemas().then((m) => m.ringcloudStep2Schema)) });
  const [agency, setAgency] = useState<RingcloudStep1 | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [resuming, setResuming] = useState(resumeId !== null);
  const [resumeError, setResumeError] = useState<string | null>(null);
  const heading = useFocusOnChange<HTMLHeadingElement>(step);
  const leadType = leadForm.watch("leadType");

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on arrival
  useEffect(() => {
    if (!resumeId) return;
    call(api.surveys[":id"].$get({ param: { id: encodeURIComponent(resumeId) } }))
      .then((survey) => {
        const answers = survey.answers as Partial<RingcloudStep1 & RingcloudStep2>;
        agencyForm.reset(answers as RingcloudStep1);
        leadForm.reset(answers as RingcloudStep2);
        setAgency(answers as RingcloudStep1);
        setSaved({ surveyId: survey.surveyId, username: survey.username, email: survey.email });
        setStep(2);
      })
      .catch((error) =>
        setResumeError(
          error instanceof ApiError && error.status === 401
            ? "Log in to continue with your saved survey."
            : errorMessage(error, "We could not load your saved survey."),
        ),
      )
      .finally(() => setResuming(false));
  }, []);

  async function submit(preferences: RingcloudStep2) {
    if (!agency) return;
    setSubmitting(true);
    setSubmitError(null);
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
      setSaved(saved ?? { surveyId: checkout.survey, username: agency.username, email: agency.email });
      toast({ title: "Survey Submitted Successfully", description: "Redirecting to payment...", variant: "success" });
      const params = new URLSearchParams(Object.entries(checkout).map(([key, value]) => [key, String(value)]));
      window.location.assign(`/ringcloud-checkout?${params}`);
    } catch (error) {
      setSubmitting(false);
      if (error instanceof ApiError && (error.status === 409 || error.fieldErrors.password)) {
        setStep(1);
        // A taken username or e-mail (409), or a password the server refuses as too common (400).
        const field = error.fieldErrors.password ? "password" : error.fieldErrors.email ? "email" : "username";
        setTimeout(() => agencyForm.setError(field, { message: error.serverMessage }, { shouldFocus: true }));
        return;
      }
      setSubmitError(errorMessage(error, "Failed to submit survey."));
    }
  }

  if (resuming) {
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
      {resumeError && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-900">
          {resumeError}{" "}
          <a className="font-semibold underline" href={`/login?next=${encodeURIComponent(`/ringcloud${search}`)}`}>
            Log in
          </a>
        </p>
      )}
      <Card>
        {step === 1 ? (
          <Form
            key="agency-info"
            aria-label="Agency Info"
            className="space-y-5"
            onSubmit={agencyForm.handleSubmit((values) => {
              setAgency(values);
              setStep(2);
            })}
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
              <Field label="Phone" type="tel" autoComplete="tel" {...fieldProps(agencyForm, "phone")} />
            </div>
            <SelectField
              label="State"
              placeholder="Select your state"
              options={US_STATES.map(([value, label]) => ({ value, label }))}
              {...fieldProps(agencyForm, "state")}
            />
            {saved ? (
              <SavedAccount username={saved.username} email={saved.email} />
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
              <div className="grid gap-5 sm:grid-cols-2">
                <Field
                  label="Transfers per day"
                  type="number"
                  min={1}
                  {...fieldProps(leadForm, "transfersPerDay", { valueAsNumber: true })}
                />
                <Field
                  label="Total transfers"
                  type="number"
                  min={1}
                  {...fieldProps(leadForm, "totalTransfers", { valueAsNumber: true })}
                />
                <Field
                  label="Transfer hours"
                  placeholder="e.g. 9am-5pm EST"
                  {...fieldProps(leadForm, "transferHours")}
                />
                <Field label="Transfer phone" type="tel" {...fieldProps(leadForm, "transferPhone")} />
              </div>
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
            {submitError && (
              <RetryNotice message={submitError} busy={submitting} onRetry={leadForm.handleSubmit(submit)} />
            )}
            <div className="flex justify-between">
              <Button variant="secondary" onClick={() => setStep(1)}>
                Back
              </Button>
              <Button type="submit" size="lg" busy={submitting}>
                {submitting ? "Submitting..." : "Continue to Payment"}
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

/**
 * The two onboarding wizards' steps (/survey and /ringcloud), moved by one reducer: which step shows, the
 * answers each step handed on, the account the first save created (decision 0017), the save in flight and
 * its error, and resuming a saved survey after a refresh or from 'Back to Survey'.
 */
import { useReducer } from "react";
import type { PaymentStart } from "../../../../domain/schemas/payments";
import { type Answer, ApiError, api, call, errorMessage } from "../../../../lib/api";

/** The account the first save created: its username and e-mail stay, the wizard only updates answers. */
export type SavedAccount = Pick<Answer<(typeof api.surveys)[":id"]["$get"]>, "surveyId" | "username" | "email">;

interface WizardState<Agency, Lead> {
  step: number;
  agency: Agency | null;
  lead: Lead | null;
  saved: SavedAccount | null;
  /** A save is in flight. */
  saving: boolean;
  saveError: string | null;
  /** The survey's payment (step 3 of /survey): null while it is being prepared. */
  payment: PaymentStart | null;
  paymentError: string | null;
  /** A saved survey is being loaded (`?survey=ID`). */
  resuming: boolean;
  resumeError: string | null;
}

type WizardAction<Agency, Lead> =
  | { type: "agency"; values: Agency }
  | { type: "go"; step: number }
  | { type: "saving"; lead: Lead }
  | { type: "saved"; saved: SavedAccount; step: number }
  | { type: "save-failed"; error: string }
  /** The server refused the account (taken username or e-mail, common password): back to step 1. */
  | { type: "account-refused" }
  | { type: "preparing-payment" }
  | { type: "payment"; payment: PaymentStart }
  | { type: "payment-failed"; error: string }
  /** The checkout refused what the answers ask (aged leads beyond stock): back to the lead step, saying why. */
  | { type: "payment-refused"; error: string }
  | { type: "resumed"; agency: Agency; lead: Lead; saved: SavedAccount; step: number }
  | { type: "resume-failed"; error: string };

function wizardReducer<Agency, Lead>(
  state: WizardState<Agency, Lead>,
  action: WizardAction<Agency, Lead>,
): WizardState<Agency, Lead> {
  switch (action.type) {
    case "agency":
      return { ...state, agency: action.values, step: 2 };
    case "go":
      return { ...state, step: action.step };
    case "saving":
      return { ...state, lead: action.lead, saving: true, saveError: null };
    case "saved":
      // The first save's account stays: later saves update the same survey.
      return { ...state, saving: false, saved: state.saved ?? action.saved, step: action.step, payment: null };
    case "save-failed":
      return { ...state, saving: false, saveError: action.error };
    case "account-refused":
      return { ...state, saving: false, step: 1 };
    case "preparing-payment":
      return { ...state, payment: null, paymentError: null };
    case "payment":
      return { ...state, payment: action.payment, paymentError: null };
    case "payment-failed":
      return { ...state, paymentError: action.error };
    case "payment-refused":
      return { ...state, step: 2, saveError: action.error, payment: null, paymentError: null };
    case "resumed":
      return {
        ...state,
        agency: action.agency,
        lead: action.lead,
        saved: action.saved,
        step: action.step,
        resuming: false,
      };
    case "resume-failed":
      return { ...state, resuming: false, resumeError: action.error };
  }
}

function initialWizardState<Agency, Lead>(resuming: boolean): WizardState<Agency, Lead> {
  return {
    step: 1,
    agency: null,
    lead: null,
    saved: null,
    saving: false,
    saveError: null,
    payment: null,
    paymentError: null,
    resuming,
    resumeError: null,
  };
}

export function useWizard<Agency, Lead>(resuming: boolean) {
  return useReducer(wizardReducer<Agency, Lead>, resuming, initialWizardState<Agency, Lead>);
}

/**
 * The step-1 field a refused account save belongs under: the password the server finds too common (400),
 * or the taken username or e-mail (409); null for any other failure.
 */
export function refusedAccountField(error: unknown): "password" | "email" | "username" | null {
  if (!(error instanceof ApiError) || !(error.status === 409 || error.fieldErrors.password)) return null;
  return error.fieldErrors.password ? "password" : error.fieldErrors.email ? "email" : "username";
}

/** The signed-in buyer's saved survey, for a wizard to resume; the error says to log in when the session ended. */
export async function loadSavedSurvey(surveyId: string) {
  try {
    return await call(api.surveys[":id"].$get({ param: { id: encodeURIComponent(surveyId) } }));
  } catch (error) {
    throw new Error(
      error instanceof ApiError && error.status === 401
        ? "Log in to continue with your saved survey."
        : errorMessage(error, "We could not load your saved survey."),
    );
  }
}

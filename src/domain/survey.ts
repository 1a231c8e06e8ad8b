/** The wizards' choices and rules that the pages need without zod (decision 0016); schemas/survey.ts validates. */

/** The two survey variants (the RingCloud page is the second); stored as survey_responses.kind. */
export const SURVEY_KINDS = ["survey", "ringcloud"] as const;
export type SurveyKind = (typeof SURVEY_KINDS)[number];

export const SURVEY_ROLES = ["Insurance Agent", "Agency Owner"] as const;
export const CALLBACK_PREFERENCES = ["morning", "afternoon", "evening", "anytime"] as const;

/** How many of the chosen lead type the survey orders. */
export const surveyQuantity = (step2: {
  leadType: string;
  totalTransfers?: number | null | undefined;
  totalCallbacks?: number | null | undefined;
}) => (step2.leadType === "Live Transfers" ? step2.totalTransfers : step2.totalCallbacks) ?? 0;

/** The two survey wizards' answers as the browser posts them, each with a fresh username and e-mail, and their checkout. */
import { expect } from "vitest";
import { callApi, uniqueTag } from "./helpers";
import { startPayment } from "./payment-fixtures";

export function surveyBody(overrides: Record<string, unknown> = {}) {
  const tag = uniqueTag();
  return {
    firstName: "Sam",
    lastName: "Agent",
    agencyName: "Agent Co",
    role: "Agency Owner",
    phone: "5551234567",
    email: `sam${tag}@example.com`,
    username: `sam${tag}`,
    password: "agent-secret-1",
    leadType: "Live Transfers",
    totalTransfers: 10,
    callsPerDay: 5,
    transferHours: "9-5 EST",
    totalPrice: 35_000,
    ...overrides,
  };
}

export function ringcloudBody(overrides: Record<string, unknown> = {}) {
  const tag = uniqueTag();
  return {
    agencyName: "Ring Agency",
    firstName: "Rae",
    lastName: "Caller",
    email: `rae${tag}@example.com`,
    phone: "5559876543",
    state: "TX",
    username: `rae${tag}`,
    password: "agent-secret-1",
    confirmPassword: "agent-secret-1",
    leadType: "partial_apps",
    totalTransfers: 20,
    ageRange: "60-90",
    workingStates: "TX, OK",
    role: "Insurance Agent",
    ...overrides,
  };
}

/** The ringcloud wizard's answers for live transfers: transfers a day, hours, the transfer number and states. */
export function ringcloudTransfersBody(overrides: Record<string, unknown> = {}) {
  const { ageRange: _ageRange, role: _role, ...answers } = ringcloudBody();
  return {
    ...answers,
    state: "CA",
    leadType: "live_transfers",
    transfersPerDay: 5,
    totalTransfers: 10,
    transferHours: "10:00-16:00",
    transferPhone: "5551112222",
    workingStates: "CA, NV",
    ...overrides,
  };
}

/** Posts a wizard's answers (`/api/survey` or `/api/ringcloud-survey`): the response, once it said 201. */
export async function submitSurvey(path: "/api/survey" | "/api/ringcloud-survey", body: Record<string, unknown>) {
  const response = await callApi(path, { json: body });
  expect(response.status).toBe(201);
  return response;
}

/** The survey wizard's live-transfer answers (10 transfers, $350) sent, and their checkout started. */
export async function checkoutSurvey(answers: ReturnType<typeof surveyBody>) {
  const { surveyId } = await (await submitSurvey("/api/survey", answers)).json<{ surveyId: string }>();
  return startPayment({ amount: 350, leadType: "Live Transfers", quantity: 10, surveyId });
}

/** The ringcloud wizard's live-transfer answers (10 transfers, $370) sent, and their checkout started. */
export async function checkoutRingcloudTransfers(answers: ReturnType<typeof ringcloudTransfersBody>) {
  const { surveyId } = await (await submitSurvey("/api/ringcloud-survey", answers)).json<{ surveyId: string }>();
  return startPayment({ amount: 370, tier: "ringcloud", packageType: "live_transfers", quantity: 10, surveyId });
}

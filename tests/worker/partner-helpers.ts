/** Partner accounts for Worker tests: an application approved by an admin, its invitation accepted. */
import { expect } from "vitest";
import { callApi, printedToken, sessionCookie, signedIn } from "./helpers";

let count = 0;

function applicationForm(overrides: Record<string, string> = {}): { form: FormData; email: string } {
  count += 1;
  const email = `partner_${Date.now().toString(36)}_${count}_${Math.floor(Math.random() * 1e6)}@example.com`;
  const fields: Record<string, string> = {
    businessName: `Call Center ${count}`,
    businessAddress: "1 Main St",
    city: "Austin",
    state: "TX",
    zip: "73301",
    ein: "123456789",
    mainContact: "Pat Q Partner",
    contactPhone: "5551234567",
    contactEmail: email,
    paymentTerms: "Net 15",
    numberOfAgents: "12",
    officeHours: "9-5",
    timeZone: "CST",
    payPerTransfer: "$20.50",
    didNumber: "5550001111",
    dailyCallCap: "40",
    ...overrides,
  };
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  return { form, email: fields.contactEmail ?? email };
}

export async function submitApplication(overrides: Record<string, string> = {}) {
  const { form, email } = applicationForm(overrides);
  const response = await callApi("/api/affnetwork-signup", { method: "POST", body: form });
  expect(response.status).toBe(201);
  const { id } = await response.json<{ id: string }>();
  return { id, email };
}

export async function decide(id: string, status: "approved" | "rejected", cookie?: string) {
  const admin = cookie ?? (await signedIn({ isAdmin: true })).cookie;
  return callApi(`/api/affnetwork-signups/${id}/status`, { method: "PATCH", json: { status }, cookie: admin });
}

/** The token of the last invitation e-mailed to `email`. */
export async function invitationToken(email: string): Promise<string> {
  return printedToken(email, "/partner-invitation");
}

/** An approved partner who accepted the invitation: its username, password and session cookie. */
export async function signedInPartner(overrides: Record<string, string> = {}) {
  const { id, email } = await submitApplication(overrides);
  expect((await decide(id, "approved")).status).toBe(200);
  const password = "partner-password-1";
  const accepted = await callApi("/api/partner-invitation/accept", {
    json: { token: await invitationToken(email), password },
  });
  expect(accepted.status).toBe(200);
  return { applicationId: id, username: email, password, cookie: sessionCookie(accepted) };
}

/** Partner-application steps and the demo partner's API calls, shared by the browser tests. */
import type { Page } from "@playwright/test";
import { DEMO_PARTNER_KEY } from "../../scripts/demo-transfers.ts";
import { localTime } from "../../src/domain/time-zones";
import { url } from "./fixtures";

const DAY = 86_400_000;

/** One POST of the demo partner's dialer to the partner API (`path` under /api/v1); throws unless it is taken. */
export async function partnerPost(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url(`/api/v1${path}`), {
    method: "POST",
    headers: { Authorization: `Bearer ${DEMO_PARTNER_KEY}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${path} → ${response.status} ${String(json.message)}`);
  return json;
}

/** A prospect as the partner API's call-back takes it. */
interface CallbackProspect {
  firstName: string;
  lastName: string;
  phone: string;
  state: string;
  email: string;
}

/**
 * The demo partner posts a call-back for `prospect` over the partner API (docs/decisions/0058): tomorrow
 * 9-11 am in Chicago, with consent given a minute ago. Answers its id; throws with the status and message
 * when it is not taken.
 */
export async function postCallback(prospect: CallbackProspect): Promise<string> {
  const json = await partnerPost("/callbacks", {
    kind: "callback",
    prospect,
    window: { date: localTime(Date.now() + DAY, "America/Chicago").day, from: "09:00", to: "11:00" },
    consent: { optInAt: new Date(Date.now() - 60_000).toISOString(), optInUrl: "https://example.com/quote" },
  });
  if (typeof json.callbackId !== "string")
    throw new Error(`/callbacks answered no callbackId: ${JSON.stringify(json)}`);
  return json.callbackId;
}

export async function fillApplication(page: Page, businessName: string, contactEmail = "pam@example.com") {
  const values: [string, string][] = [
    ["Business name", businessName],
    ["Business address", "12 Partner Way"],
    ["City", "Tulsa"],
    ["State", "OK"],
    ["ZIP code", "74101"],
    ["EIN", "987654321"],
    ["Main contact", "Pam Partner"],
    ["Contact phone", "5556667777"],
    ["Contact email", contactEmail],
    ["Number of agents", "25"],
    ["Office hours", "8-6"],
    ["Pay per transfer", "$18"],
    ["DID number", "5558889999"],
    ["Daily call cap", "60"],
    ["Reference 1 company", "Ref One"],
  ];
  for (const [label, value] of values) await page.getByLabel(label, { exact: true }).fill(value);
}

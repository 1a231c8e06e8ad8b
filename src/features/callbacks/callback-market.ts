/**
 * The marketplace of unassigned call-backs and appointments (docs/decisions/0061): what a buyer sees
 * before buying (masked like an aged lead, product rules 12 and 14), what a purchase sends, and the
 * calendar invite (RFC 5545) an appointment's buyer downloads. Shared by the Worker and the dashboard.
 */
import { type CallbackKind, SAME_PROSPECT_DAYS } from "./callbacks.ts";

/** At most this many are listed at once, soonest window first. */
export const MARKET_LIST_LIMIT = 100;

/** A listed call-back or appointment: masked name and phone, the state, the window as instants. */
export interface MarketCallback {
  id: string;
  kind: CallbackKind;
  /** "Mary J.": the first name and the last initial. */
  name: string;
  /** "(214) ***-****": the area code only. */
  phone: string;
  state: string;
  /** The prospect's IANA time zone. */
  timeZone: string;
  /** ISO 8601, UTC. */
  windowStart: string;
  windowEnd: string;
  priceCents: number;
}

/** What a buyer is told when a call-back cannot be bought; one place for each message. */
export const MARKET_MESSAGES = {
  unknown: "That call-back or appointment does not exist.",
  sold: "That call-back or appointment has already been sold.",
  started: "Its window has already started, so it is no longer for sale.",
  reserved: "Another buyer is paying for it right now. Try another one, or again in a few minutes.",
  lost: "The call-back was sold to another buyer before the payment arrived; refunded",
  suppressed: "Its number was added to a Do Not Call list before the payment arrived; refunded",
  /** The 30-day rule (docs/decisions/0075): refused at purchase, before anything is charged. */
  hadProspect: `You received this prospect within the last ${SAME_PROSPECT_DAYS} days, so it cannot be sold to you. Nothing was charged.`,
  /** The same, when the prospect reached the buyer between the purchase and its payment. */
  hadProspectAtPayment: `You received this prospect within the last ${SAME_PROSPECT_DAYS} days before the payment arrived; refunded`,
} as const;

/** The `.ics` file name and its address for a delivered call-back or appointment. */
export const icsPath = (callbackId: string) => `/api/my-callbacks/${encodeURIComponent(callbackId)}/invite.ics`;

/** 20261201T200000Z: an instant as RFC 5545's UTC DATE-TIME. */
const icsTime = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** RFC 5545 TEXT: backslash, semicolon, comma and newlines escaped. */
const icsText = (text: string) =>
  text.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");

/** Lines longer than 75 octets are folded (RFC 5545 3.1): CRLF and one space. */
function fold(line: string): string {
  const bytes = new TextEncoder().encode(line);
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = "";
  let size = 0;
  for (const char of line) {
    const length = new TextEncoder().encode(char).length;
    if (size + length > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = "";
      size = 0;
    }
    current += char;
    size += length;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

export interface InviteFor {
  id: string;
  kind: CallbackKind;
  name: string;
  phone: string;
  state: string;
  timeZone: string;
  windowStart: number;
  windowEnd: number;
}

/** The calendar invite of a delivered call-back or appointment: one VEVENT, times in UTC. */
export function calendarInvite(item: InviteFor, now: number, host: string): string {
  const what = item.kind === "appointment" ? "Appointment" : "Call-back";
  const minutes = Math.round((item.windowEnd - item.windowStart) / 60_000);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Final Expense Leads//Call-backs//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${item.id}@${host}`,
    `DTSTAMP:${icsTime(now)}`,
    `DTSTART:${icsTime(item.windowStart)}`,
    `DTEND:${icsTime(item.windowEnd)}`,
    `SUMMARY:${icsText(`${what}: call ${item.name}`)}`,
    `DESCRIPTION:${icsText(
      `Call ${item.name} at ${item.phone} (${item.state}). ${what} of ${minutes} minutes; the prospect's time zone is ${item.timeZone}.`,
    )}`,
    "STATUS:CONFIRMED",
    "BEGIN:VALARM",
    "ACTION:DISPLAY",
    `DESCRIPTION:${icsText(`${what} with ${item.name}`)}`,
    "TRIGGER:-PT15M",
    "END:VALARM",
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(fold).join("\r\n")}\r\n`;
}

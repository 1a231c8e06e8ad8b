/**
 * Every e-mail the shop sends (docs/decisions/0029), built here and nowhere else: plain text plus simple
 * HTML with the same words and the same absolute links. A template takes the site's origin
 * (`siteOrigin`) and its facts; links that sign someone in are marked secret, so the mailer keeps them
 * out of the outbox and out of non-development logs.
 */
import { site as siteConfig } from "../../src/config/site";
import { formatUsd } from "../../src/domain/format";
import { RESET_LINK_LIFETIME } from "../../src/features/accounts/auth-limits";
import { type CallbackKind, REMINDER_MINUTES_BEFORE } from "../../src/features/callbacks/callbacks";
import { INVITATION_TTL_HOURS } from "../../src/features/partners/schemas/partner-account";
import { returnReasonLabel } from "../../src/features/returns/returns";
import { RESUME_REFUSALS } from "../../src/features/transfers/delivery-pauses";
import { SETUP_LINK_TTL_DAYS } from "../../src/features/transfers/delivery-setup";
import { NO_ANSWER_PAUSE_REASON, NOT_CHARGED_LABEL } from "../../src/features/transfers/transfers";
import { WEBHOOK_DISABLE_AFTER_MS } from "../../src/features/webhook-outbox/events";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A rendered e-mail. `links` are every URL it carries; `secrets` those only its recipient may see. */
export interface Email {
  subject: string;
  text: string;
  html: string;
  links: string[];
  secrets: string[];
}

interface LinkPart {
  href: string;
  secret: boolean;
}
type Inline = string | LinkPart;
/** One line of the body; "" separates paragraphs. */
type Line = Inline | Inline[];

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );

/** The site's page `path` as an absolute URL (the origin comes from `siteOrigin`). */
const page = (origin: string, path: string, secret = false): LinkPart => ({ href: `${origin}${path}`, secret });

function compose(subject: string, lines: Line[]): Email {
  const parts = lines.map((line) => (Array.isArray(line) ? line : [line]));
  const links = parts.flat().filter((part): part is LinkPart => typeof part !== "string");
  const text = parts
    .map((line) => line.map((part) => (typeof part === "string" ? part : part.href)).join(""))
    .join("\n");
  const paragraphs: string[][] = [[]];
  for (const line of parts) {
    if (line.length === 1 && line[0] === "") paragraphs.push([]);
    else
      paragraphs[paragraphs.length - 1]?.push(
        line
          .map((part) =>
            typeof part === "string"
              ? escapeHtml(part)
              : `<a href="${escapeHtml(part.href)}">${escapeHtml(part.href)}</a>`,
          )
          .join(""),
      );
  }
  const body = paragraphs
    .filter((lines) => lines.length > 0)
    .map((lines) => `<p>${lines.join("<br>\n")}</p>`)
    .join("\n");
  return {
    subject,
    text,
    html: `<!doctype html>\n<html><body style="font-family:sans-serif;line-height:1.5">\n${body}\n</body></html>`,
    links: links.map((link) => link.href),
    secrets: links.filter((link) => link.secret).map((link) => link.href),
  };
}

/** Where a buyer finds delivered call-backs and appointments. */
const MY_CALLBACKS_PATH = "/dashboard?view=my-call-backs";

interface CallbackMailFacts {
  buyerName: string | null;
  kind: CallbackKind;
  prospectFirstName: string;
  phone: string;
  window: string;
}
const callbackNoun = (kind: CallbackKind) => (kind === "appointment" ? "appointment" : "call-back");

const RETURNED_KIND_NAMES = { transfer: "live transfer", aged_lead: "aged lead", callback: "call-back" } as const;
function approvedText(kind: keyof typeof RETURNED_KIND_NAMES, withoutOrder: boolean): string {
  if (kind === "transfer") return "Your order gets one transfer back: we will deliver another call in its place.";
  if (kind === "callback" && !withoutOrder)
    return "Your order gets one call-back back: the next call-back goes in its place.";
  return kind === "callback"
    ? "Its price was credited to your balance; it is applied at your next aged-lead checkout."
    : "The lead left My Leads and its price was credited to your balance; it is applied at your next aged-lead checkout.";
}

const hello = (name: string | null | undefined) => `Hello${name ? ` ${name}` : ""},`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Each template: `(origin, facts)` when the e-mail carries links, `(facts)` when it has none. */
export const emails = {
  passwordReset: (origin: string, { name, linkPath }: { name: string; linkPath: string }) =>
    compose("Reset your password", [
      hello(name),
      "",
      "Someone asked to reset the password of your account. Open this link to choose a new one:",
      page(origin, linkPath, true),
      "",
      `The link expires in ${RESET_LINK_LIFETIME} and works once. If you did not ask for it, ignore this e-mail.`,
    ]),

  partnerInvitation: (
    origin: string,
    invite: { contactName: string; businessName: string; username: string; linkPath: string },
  ) =>
    compose("Your partner account is approved", [
      hello(invite.contactName),
      "",
      `${invite.businessName} is approved as a transfer partner. Your username is ${invite.username}.`,
      "Open this link to choose your password and enter the partner portal:",
      page(origin, invite.linkPath, true),
      "",
      `The link works once and expires in ${INVITATION_TTL_HOURS} hours.`,
    ]),

  deliverySetup: (origin: string, order: { orderId: string; quantity: number; linkPath: string }) =>
    compose("Set up your live-transfer deliveries", [
      "Thank you for your order!",
      "",
      `Order ${order.orderId}: ${order.quantity} live transfers.`,
      "Before partners can send you calls we need your transfer number, states, hours and daily limit.",
      "Open this link to set them up (you sign in to your account, or create one, on that page):",
      page(origin, order.linkPath, true),
      "",
      `The link works once and expires in ${SETUP_LINK_TTL_DAYS} days.`,
    ]),

  orderConfirmation: (order: { orderId: string; quantity: number; totalCents: number }) =>
    compose("Your order is confirmed", [
      "Thank you for your purchase!",
      "",
      `Order ${order.orderId}`,
      `Quantity: ${order.quantity}`,
      `Total paid: ${formatUsd(order.totalCents)}`,
      "",
      `We will call you ${siteConfig.supportWindow} to set up delivery. Questions: ${siteConfig.supportEmail}.`,
    ]),

  deliverySummary: (
    origin: string,
    summary: { firstName: string | null; day: string; billable: number; notCharged: number },
  ) =>
    compose(`Your live transfers on ${summary.day}`, [
      hello(summary.firstName),
      "",
      `On ${summary.day} we delivered ${plural(summary.billable, "billable live transfer")}` +
        (summary.notCharged > 0 ? ` and ${summary.notCharged} ${NOT_CHARGED_LABEL}.` : "."),
      ["Every call, its recording and returns are in your Lead Tracker: ", page(origin, "/dashboard")],
    ]),

  /** The day's revocations (docs/decisions/0082): numbers masked, one line each. */
  revocationDigest: (origin: string, digest: { firstName: string | null; day: string; lines: string[] }) =>
    compose(`Numbers you bought added to Do Not Call on ${digest.day}`, [
      hello(digest.firstName),
      "",
      `On ${digest.day} ${plural(digest.lines.length, "number")} you bought reached a Do Not Call list. Stop calling them:`,
      ...digest.lines.map((line) => `- ${line}`),
      "",
      ["They are flagged in My Leads and your Lead Tracker: ", page(origin, "/dashboard")],
    ]),

  transfersPaused: (origin: string, paused: { name: string | null; orderId: string; needsAdmin: boolean }) =>
    compose("Live transfers paused on your order", [
      hello(paused.name),
      "",
      `We paused live transfers to your order ${paused.orderId.slice(0, 8)} because ${NO_ANSWER_PAUSE_REASON}.`,
      paused.needsAdmin
        ? RESUME_REFUSALS.needs_admin
        : "Callers are waiting: please check that your transfer number is staffed, then confirm or change it to resume deliveries in your dashboard's Lead Tracker:",
      page(origin, "/dashboard?view=lead-tracker"),
    ]),

  /** A call-back's approval gives its order a place back; one bought without an order was credited (decision 0062). */
  returnDecided: (
    origin: string,
    decision: {
      kind: "transfer" | "aged_lead" | "callback";
      approved: boolean;
      status: string;
      itemLabel: string;
      reason: string;
      adminNote: string | null;
      /** A call-back bought without an order: its price was credited (decision 0062). */
      withoutOrder?: boolean;
    },
  ) =>
    compose(decision.approved ? "Your return was approved" : "Your return was denied", [
      `Your return of the ${RETURNED_KIND_NAMES[decision.kind]} ${decision.itemLabel} (${returnReasonLabel(decision.reason)}) was ${decision.status}.`,
      decision.approved
        ? approvedText(decision.kind, decision.withoutOrder === true)
        : `Note from our team: ${decision.adminNote ?? ""}`,
      "",
      ["Your returns: ", page(origin, "/dashboard")],
    ]),

  webhookEndpointSwitchedOff: (
    origin: string,
    endpoint: { firstName: string | null; endpointName: string; url: string },
  ) =>
    compose("Your webhook endpoint was switched off", [
      hello(endpoint.firstName),
      "",
      `Every delivery to your webhook endpoint "${endpoint.endpointName}" (${endpoint.url}) failed for ${WEBHOOK_DISABLE_AFTER_MS / DAY_MS} days in a row, so we switched it off. The events we could not deliver are kept as dead letters in its delivery log.`,
      "Once your endpoint answers again, switch it back on and resend the failed events of that time range:",
      page(origin, "/dashboard?view=integrations"),
    ]),

  doNotCallBurst: (
    origin: string,
    burst: { numbers: number; addresses: number; windowMinutes: number; path: string },
  ) =>
    compose("Unusual number of Do Not Call requests", [
      `In the last ${burst.windowMinutes} minutes the public /do-not-call page put ${plural(burst.numbers, "number")} on our Do Not Call list, asked from ${burst.addresses} ${burst.addresses === 1 ? "address" : "addresses"}.`,
      "Their leads are no longer sold. If this is misuse, review the requests and remove the numbers that should not be there (each removal asks for a reason and is logged):",
      page(origin, burst.path),
      "",
      "We send this at most once an hour.",
    ]),

  registryFreshness: (origin: string, alert: { stale: boolean; lines: string[]; path: string }) =>
    compose(
      alert.stale
        ? "Do Not Call registry copy stale: sales stopped"
        : "Do Not Call registry copy goes stale soon: upload a fresh copy",
      [
        ...alert.lines,
        "",
        ["Upload a fresh copy: ", page(origin, alert.path)],
        "",
        "We send this once a day until every copy is fresh.",
      ],
    ),

  transferReturnedToPartner: (origin: string, returned: { itemLabel: string; reason: string }) =>
    compose("A transfer was returned by the buyer", [
      `The buyer returned the transfer of ${returned.itemLabel} (${returnReasonLabel(returned.reason)}) and we approved it.`,
      "It no longer counts in your payout statement.",
      "",
      ["Your statement: ", page(origin, "/partner")],
    ]),

  callbackDelivered: (origin: string, callback: CallbackMailFacts) =>
    compose(`New ${callbackNoun(callback.kind)}: call ${callback.prospectFirstName} ${callback.window}`, [
      hello(callback.buyerName),
      "",
      `A new ${callbackNoun(callback.kind)} was delivered to your order: ${callback.prospectFirstName} (${callback.phone}) asked to be called ${callback.window}, in the prospect's time zone.`,
      `We will remind you ${REMINDER_MINUTES_BEFORE} minutes before the window opens. Contact details and consent are in My Call-Backs:`,
      page(origin, MY_CALLBACKS_PATH),
    ]),

  callbackReminder: (origin: string, callback: CallbackMailFacts) =>
    compose(`Reminder: call ${callback.prospectFirstName} ${callback.window}`, [
      hello(callback.buyerName),
      "",
      `Your ${callbackNoun(callback.kind)} with ${callback.prospectFirstName} (${callback.phone}) opens in ${REMINDER_MINUTES_BEFORE} minutes or less: ${callback.window}, in the prospect's time zone.`,
      ["Details in My Call-Backs: ", page(origin, MY_CALLBACKS_PATH)],
    ]),
};

/**
 * The one mailer (product rules 11, 27, 35). Every message is kept in the outbox table; with
 * MAIL_API_URL set it is also sent through that HTTP e-mail API (text and HTML), otherwise it is printed
 * to the console (local runs, tests). A message's `secrets` (links that sign someone in) never reach the
 * outbox, and reach the console only when APP_ENV is `development`: both keep a copy with each secret
 * replaced by REDACTED. Outside development a message with a relative link is refused (decision 0029).
 */
import { eq } from "drizzle-orm";
import { outbox } from "../db/schema";
import type { Deps } from "../deps";
import type { Env } from "../env";
import { UnavailableError } from "../errors";
import type { Email } from "./email-templates";

export const REDACTED = "[link removed from the stored copy]";

/** The message text with every secret replaced, as the outbox and non-development logs keep it. */
function redactedText(email: Pick<Email, "text" | "secrets">): string {
  return email.secrets.reduce((text, secret) => text.replaceAll(secret, REDACTED), email.text);
}

const isDevelopment = (env: Env) => env.APP_ENV === "development";
const ABSOLUTE_HTTP_URL = /^https?:\/\/[^/\s]+/;

/**
 * Thrown instead of sending an e-mail whose links would not open from a mailbox: a 503 to whoever asked
 * for the e-mail (an admin re-sending a link learns what to configure), logged where mail goes out in
 * the background.
 */
export class RelativeLinkError extends UnavailableError {
  constructor(subject: string) {
    super(`Not sent: "${subject}" carries a relative link. Set PUBLIC_SITE_URL to the site's https origin.`);
    this.name = "RelativeLinkError";
  }
}

export async function sendMail(deps: Deps, to: string, email: Email): Promise<void> {
  const { db, env } = deps;
  if (!isDevelopment(env) && !email.links.every((link) => ABSOLUTE_HTTP_URL.test(link))) {
    throw new RelativeLinkError(email.subject);
  }
  const id = crypto.randomUUID();
  await db.insert(outbox).values({ id, to, subject: email.subject, text: redactedText(email) });
  if (!env.MAIL_API_URL) {
    const text = isDevelopment(env) ? email.text : redactedText(email);
    console.log(`[mail] to ${to}: ${email.subject}\n${text}`);
    return;
  }
  const response = await fetch(env.MAIL_API_URL, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${env.MAIL_API_KEY ?? ""}` },
    body: JSON.stringify({ from: env.MAIL_FROM, to, subject: email.subject, text: email.text, html: email.html }),
  });
  if (!response.ok) throw new Error(`Mail API answered ${response.status}`);
  await db.update(outbox).set({ sentAt: new Date() }).where(eq(outbox.id, id));
}

/** Where local links point when there is no request to take the origin from (the cron): `npm start`'s default. */
export const DEVELOPMENT_SITE_URL = "http://localhost:8787";

/** PUBLIC_SITE_URL's origin when it is an absolute http(s) URL, else null. */
function configuredOrigin(env: Env): string | null {
  if (!env.PUBLIC_SITE_URL) return null;
  try {
    const url = new URL(env.PUBLIC_SITE_URL);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Where links in e-mails point: PUBLIC_SITE_URL, which is required outside development. In development
 * it may be left empty: the request's own origin, or DEVELOPMENT_SITE_URL without a request. Outside
 * development without it the answer is "" (so links are relative and the mailer refuses to send them).
 */
export function siteOrigin({ env }: Deps, requestUrl?: string): string {
  const configured = configuredOrigin(env);
  if (configured) return configured;
  if (!isDevelopment(env)) return "";
  return requestUrl ? new URL(requestUrl).origin : DEVELOPMENT_SITE_URL;
}

/** For /api/health: whether e-mailed links can be absolute. */
export function siteUrlState({ env }: Deps): "configured" | "development" | "missing" {
  if (configuredOrigin(env)) return "configured";
  return isDevelopment(env) ? "development" : "missing";
}

/**
 * The one mailer (PRODUCT.md D10). Every message is kept in the outbox table; with MAIL_API_URL set it
 * is also sent through that HTTP e-mail API, otherwise it is printed to the console (local runs, tests).
 * A message's `secrets` (a reset link) never reach the outbox, and reach the console only when
 * APP_ENV is `development`: both keep a copy with each secret replaced by REDACTED.
 */
import type { Env } from "../env";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Parts of `text` that only the recipient may see (links that sign someone in or reset a password). */
  secrets?: string[];
}

export const REDACTED = "[link removed from the stored copy]";

/** The message text with every secret replaced, as the outbox and non-development logs keep it. */
export function redactedText(message: MailMessage): string {
  return (message.secrets ?? []).reduce((text, secret) => text.replaceAll(secret, REDACTED), message.text);
}

export async function sendMail(env: Env, message: MailMessage): Promise<void> {
  const id = crypto.randomUUID();
  await env.DB.prepare("INSERT INTO outbox (id, `to`, subject, text) VALUES (?, ?, ?, ?)")
    .bind(id, message.to, message.subject, redactedText(message))
    .run();
  if (!env.MAIL_API_URL) {
    const text = env.APP_ENV === "development" ? message.text : redactedText(message);
    console.log(`[mail] to ${message.to}: ${message.subject}\n${text}`);
    return;
  }
  const response = await fetch(env.MAIL_API_URL, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${env.MAIL_API_KEY ?? ""}` },
    body: JSON.stringify({ from: env.MAIL_FROM, to: message.to, subject: message.subject, text: message.text }),
  });
  if (!response.ok) throw new Error(`Mail API answered ${response.status}`);
  await env.DB.prepare("UPDATE outbox SET sent_at = ? WHERE id = ?").bind(Date.now(), id).run();
}

/** Where links in e-mails point: the configured site URL, else the origin the request came to. */
export function siteOrigin(env: Env, requestUrl: string): string {
  return env.PUBLIC_SITE_URL ? new URL(env.PUBLIC_SITE_URL).origin : new URL(requestUrl).origin;
}

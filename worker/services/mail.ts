/**
 * The one mailer (PRODUCT.md D10). Every message is kept in the outbox table; with MAIL_API_URL set it
 * is also sent through that HTTP e-mail API, otherwise it is printed to the console (local runs, tests).
 */
import type { Env } from "../env";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export async function sendMail(env: Env, message: MailMessage): Promise<void> {
  const id = crypto.randomUUID();
  await env.DB.prepare("INSERT INTO outbox (id, `to`, subject, text) VALUES (?, ?, ?, ?)")
    .bind(id, message.to, message.subject, message.text)
    .run();
  if (!env.MAIL_API_URL) {
    console.log(`[mail] to ${message.to}: ${message.subject}\n${message.text}`);
    return;
  }
  const response = await fetch(env.MAIL_API_URL, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${env.MAIL_API_KEY ?? ""}` },
    body: JSON.stringify({ from: env.MAIL_FROM, ...message }),
  });
  if (!response.ok) throw new Error(`Mail API answered ${response.status}`);
  await env.DB.prepare("UPDATE outbox SET sent_at = ? WHERE id = ?").bind(Date.now(), id).run();
}

/** Where links in e-mails point: the configured site URL, else the origin the request came to. */
export function siteOrigin(env: Env, requestUrl: string): string {
  return env.PUBLIC_SITE_URL ? new URL(env.PUBLIC_SITE_URL).origin : new URL(requestUrl).origin;
}

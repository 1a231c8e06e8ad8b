import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { desc, eq } from "drizzle-orm";
import { expect, vi } from "vitest";
import type { BulkLeadRow } from "../../src/features/aged-leads/csv-mapping";
import worker from "../../worker/app";
import { outbox } from "../../worker/db/schema";
import { queue } from "../../worker/queue";
import { SESSION_COOKIE } from "../../worker/services/sessions";
import { createAdmin, createBuyer, testDb } from "./factories";

const randomAddress = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250)).join(".")}`;

export interface CallOptions {
  method?: string;
  /** Sent as JSON with a JSON content type, as the app's own client does. */
  json?: unknown;
  cookie?: string;
  headers?: Record<string, string>;
  body?: BodyInit;
  /** The request's origin; http://localhost unless given. */
  origin?: string;
  /** Bindings and variables changed for this one request (e.g. a deployed-like configuration). */
  env?: Partial<Record<keyof typeof env, unknown>>;
  /** Bindings to run the Worker with instead of the test environment's (e.g. a wrapped D1). */
  bindings?: typeof env;
}

/**
 * Sends a request through the Worker's Astro-free pipeline (headers, CSRF, sessions, API) against real
 * bindings. Each call comes from a random client address unless `CF-Connecting-IP` is given.
 */
export async function callApi(path: string, options: CallOptions = {}): Promise<Response> {
  const headers = new Headers({ "CF-Connecting-IP": randomAddress(), ...options.headers });
  if (options.cookie) headers.set("Cookie", options.cookie);
  let body = options.body;
  if (options.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(options.json);
  }
  const method = options.method ?? (body === undefined ? "GET" : "POST");
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(new URL(path, options.origin ?? "http://localhost"), { method, headers, body }),
    options.bindings ?? (options.env ? { ...env, ...options.env } : env),
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

export interface TestUser {
  id: string;
  username: string;
  email: string;
  password: string;
}

/** A buyer (or an admin) with its password, through the factories (tests/worker/factories). */
export async function createUser(options: { isAdmin?: boolean; password?: string } = {}): Promise<TestUser> {
  const overrides = options.password === undefined ? {} : { password: options.password };
  return options.isAdmin ? createAdmin(testDb(), overrides) : createBuyer(testDb(), overrides);
}

/** The session cookie (name=value) a successful login sets. */
export function sessionCookie(response: Response): string {
  const setCookie = response.headers.getSetCookie().find((value) => value.startsWith(`${SESSION_COOKIE}=`));
  if (!setCookie) throw new Error(`no session cookie in ${response.status} response`);
  return setCookie.split(";")[0] ?? "";
}

export async function login(user: Pick<TestUser, "username" | "password">): Promise<string> {
  const response = await callApi("/api/login", { json: { username: user.username, password: user.password } });
  expect(response.status).toBe(200);
  return sessionCookie(response);
}

export async function signedIn(options: { isAdmin?: boolean } = {}) {
  const user = await createUser(options);
  return { user, cookie: await login(user) };
}

/** Asserts the route answers 401 to anonymous callers and 403 to signed-in non-admins. */
export async function expectAdminOnly(path: string, options: Omit<CallOptions, "cookie"> = {}): Promise<void> {
  const anonymous = await callApi(path, options);
  expect(anonymous.status, `${path} anonymous`).toBe(401);
  expect(await anonymous.json()).toEqual({ message: expect.any(String) });
  const { cookie } = await signedIn();
  const buyer = await callApi(path, { ...options, cookie });
  expect(buyer.status, `${path} as buyer`).toBe(403);
  expect(await buyer.json()).toEqual({ message: expect.any(String) });
}

/** Asserts the route answers 401 to anonymous callers. */
export async function expectSignedInOnly(path: string, options: Omit<CallOptions, "cookie"> = {}): Promise<void> {
  const anonymous = await callApi(path, options);
  expect(anonymous.status, `${path} anonymous`).toBe(401);
}

/**
 * Every e-mail the development console printed in this test file (the outbox keeps links that sign
 * someone in redacted, so tests read them where the developer would). Other console lines pass through.
 */
const printedMail: string[] = [];
const print = console.log.bind(console);
console.log = (...args: unknown[]) => {
  const text = args.map(String).join(" ");
  if (text.startsWith("[mail] to ")) printedMail.push(text);
  else print(...args);
};

/** The token of the last link to `page` (e.g. "/delivery-setup") printed in an e-mail to `email`. */
export function printedToken(email: string, page: string): string {
  for (const mail of [...printedMail].reverse()) {
    if (!mail.startsWith(`[mail] to ${email}:`)) continue;
    const token = new RegExp(`${page}\\?token=([\\w-]+)`).exec(mail)?.[1];
    if (token) return token;
  }
  throw new Error(`no ${page} link printed for ${email}`);
}

export async function latestMailTo(email: string): Promise<{ subject: string; text: string } | null> {
  const [mail] = await testDb()
    .select({ subject: outbox.subject, text: outbox.text })
    .from(outbox)
    .where(eq(outbox.to, email))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  return mail ?? null;
}

/**
 * Asks for a password reset and answers the link's token as the development console printed it (the
 * outbox keeps only a redacted copy), or "" when no mail was printed for that address.
 */
export async function requestResetToken(email: string): Promise<string> {
  const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    await callApi("/api/forgot-password", { json: { email } });
    const printed = log.mock.calls.map((call) => String(call[0])).find((line) => line.includes(`to ${email}:`));
    return /reset-password\?token=([\w-]+)/.exec(printed ?? "")?.[1] ?? "";
  } finally {
    log.mockRestore();
  }
}

/** Runs the queue consumer on `messages` as one delivery (the test stands in for the Queue). */
export async function deliverToQueue(messages: unknown[], options: { attempts?: number; env?: Cloudflare.Env } = {}) {
  const batch = createMessageBatch<unknown>(
    "leads-shop-imports",
    messages.map((body, i) => ({
      id: `m${i}-${crypto.randomUUID()}`,
      timestamp: new Date(),
      attempts: options.attempts ?? 1,
      body,
    })),
  );
  const ctx = createExecutionContext();
  await queue(batch, options.env ?? env);
  return getQueueResult(batch, ctx);
}

let tagCount = 0;
/** A tag no other account of the run has, for usernames and e-mail addresses. */
export const uniqueTag = () => `${Date.now().toString(36)}${++tagCount}${Math.floor(Math.random() * 1e4)}`;

/**
 * Makes phone numbers no other lead of the run has; `prefix` (one digit, 2-9) keeps each test file's
 * numbers apart. Always 10 digits: a lead's phone must be a US number (it is checked against Do Not Call lists).
 */
export function uniquePhones(prefix: string): () => string {
  let seq = Number(String(Date.now()).slice(-6)) * 1000;
  return () => `${prefix}${String(++seq % 1e9).padStart(9, "0")}`;
}

/** One CSV row as the import page sends it: a valid lead with `phone`, `overrides` aside. */
export function bulkRow(phone: string, overrides: Partial<BulkLeadRow> = {}): BulkLeadRow {
  return {
    rowNumber: 2,
    name: "Ann Lead",
    email: "",
    phone,
    state: "TX",
    ageRange: "",
    price: 0,
    formFillTime: "",
    ...overrides,
  };
}

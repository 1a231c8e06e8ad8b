/**
 * A buyer's webhook endpoints (product rule 41): at most five, each with an https URL that passes the
 * address guard when saved, a name, its events, an on/off switch and a signing secret shown once. A
 * rotation keeps the old secret signing for 24 hours. Another buyer's endpoint is "not found".
 */
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import {
  WEBHOOK_MAX_ENDPOINTS,
  WEBHOOK_SECRET_GRACE_MS,
  type WebhookEventType,
} from "../../../src/features/webhook-outbox/index";
import type {
  WebhookEndpointPatch,
  WebhookEndpointValues,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
} from "../../../src/features/webhooks/schemas/webhook-settings";
import type { SecretKeyRing } from "../../../src/features/webhooks/secret-box";
import { generateWebhookSecret } from "../../../src/features/webhooks/signature";
import { webhookDeliveries, webhookEndpoints } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, NotFoundError } from "../../errors";
import { openSecret, sealSecret, webhookKeyRing } from "./keys";
import { checkedEndpointUrl, type WebhookRuntime, workerRuntime } from "./runtime";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const SWITCHED_OFF_ERROR = "The endpoint was switched off before this event could be sent.";

function toEndpointView(row: EndpointRow): WebhookEndpointView {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events as WebhookEventType[],
    enabled: row.enabled,
    disabledAt: iso(row.disabledAt),
    failingSince: iso(row.failingSince),
    secretCreatedAt: row.secretCreatedAt.toISOString(),
    previousSecretExpiresAt: iso(row.previousSecretExpiresAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listWebhookEndpoints(deps: Deps, userId: string): Promise<WebhookEndpointView[]> {
  const rows = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(desc(webhookEndpoints.createdAt));
  return rows.map(toEndpointView);
}

/** The buyer's own endpoint; anyone else's, or an unknown id, is 404. */
export async function ownedEndpoint(deps: Deps, userId: string, endpointId: string): Promise<EndpointRow> {
  const [row] = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, userId)));
  if (!row) throw new NotFoundError("No such endpoint.");
  return row;
}

export const TOO_MANY_ENDPOINTS = `You have ${WEBHOOK_MAX_ENDPOINTS} endpoints, the most an account can have. Delete one to add another.`;

export async function createWebhookEndpoint(
  deps: Deps,
  userId: string,
  input: WebhookEndpointValues,
  runtime: WebhookRuntime = workerRuntime(),
): Promise<WebhookEndpointWithSecret> {
  const ring = await webhookKeyRing(deps.env);
  const url = await checkedEndpointUrl(deps.env, input.url, runtime);
  const id = crypto.randomUUID();
  const secret = generateWebhookSecret();
  const sealed = await sealSecret(ring, secret, id);
  // Raw SQL: an INSERT … SELECT guarded by the buyer's count of endpoints (the cap, checked by the
  // statement that adds the row, so two requests at the cap cannot both pass).
  const inserted = await deps.db.all<{ id: string }>(sql`
    INSERT INTO webhook_endpoints (id, user_id, name, url, events, enabled, secret, secret_created_at, created_at, updated_at)
    SELECT ${id}, ${userId}, ${input.name}, ${url}, ${JSON.stringify(input.events)}, ${input.enabled ? 1 : 0},
      ${sealed}, ${deps.now}, ${deps.now}, ${deps.now}
    WHERE (SELECT count(*) FROM webhook_endpoints WHERE user_id = ${userId}) < ${WEBHOOK_MAX_ENDPOINTS}
    RETURNING id`);
  if (inserted.length === 0) throw new ConflictError(TOO_MANY_ENDPOINTS);
  return { ...toEndpointView(await ownedEndpoint(deps, userId, id)), secret };
}

/**
 * Open deliveries of an endpoint just switched off stop, as dead letters the buyer can resend once it is
 * on again (test events still go: they check an endpoint before it is switched back on). Only where
 * `switchedOff` holds when the statement runs.
 */
export const stopOpenDeliveries = (deps: Deps, endpointId: string, switchedOff: SQL) =>
  deps.db
    .update(webhookDeliveries)
    .set({ status: "dead_letter", lastError: SWITCHED_OFF_ERROR, leasedUntil: null })
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        sql`${webhookDeliveries.status} IN ('pending', 'retrying')`,
        sql`${webhookDeliveries.type} <> 'test'`,
        switchedOff,
      ),
    );

/**
 * Changes name, URL (checked again), events or the switch. Switching on starts the failure count anew;
 * switching off stops its open deliveries (dead letters, resendable once it is on again).
 */
export async function updateWebhookEndpoint(
  deps: Deps,
  userId: string,
  endpointId: string,
  patch: WebhookEndpointPatch,
  runtime: WebhookRuntime = workerRuntime(),
): Promise<WebhookEndpointView> {
  const current = await ownedEndpoint(deps, userId, endpointId);
  const url =
    patch.url !== undefined && patch.url !== current.url
      ? await checkedEndpointUrl(deps.env, patch.url, runtime)
      : undefined;
  const switchedOn = patch.enabled === true && !current.enabled;
  const update = deps.db
    .update(webhookEndpoints)
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(url !== undefined ? { url } : {}),
      ...(patch.events !== undefined ? { events: patch.events } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      ...(switchedOn ? { failingSince: null, disabledAt: null } : {}),
      ...(patch.enabled === false ? { disabledAt: null } : {}),
      updatedAt: new Date(deps.now),
    })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, userId)))
    .returning();
  const [row] =
    patch.enabled === false
      ? (
          await deps.db.batch([
            update,
            stopOpenDeliveries(
              deps,
              endpointId,
              sql`EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ${endpointId} AND enabled = 0)`,
            ),
          ])
        )[0]
      : await update;
  if (!row) throw new NotFoundError("No such endpoint.");
  return toEndpointView(row);
}

export async function deleteWebhookEndpoint(deps: Deps, userId: string, endpointId: string): Promise<void> {
  const deleted = await deps.db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, userId)))
    .returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw new NotFoundError("No such endpoint.");
}

/**
 * A new signing secret, shown once. The current one signs too (a second `v1=`) for 24 hours, so the
 * buyer can switch their receiver over; a secret still in its grace period is dropped by a second rotation.
 */
export async function rotateWebhookSecret(
  deps: Deps,
  userId: string,
  endpointId: string,
): Promise<WebhookEndpointWithSecret> {
  const ring = await webhookKeyRing(deps.env);
  const current = await ownedEndpoint(deps, userId, endpointId);
  const secret = generateWebhookSecret();
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      secret: await sealSecret(ring, secret, endpointId),
      secretCreatedAt: new Date(deps.now),
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(deps.now + WEBHOOK_SECRET_GRACE_MS),
      updatedAt: new Date(deps.now),
    })
    // Only over the secret read above: two rotations at once cannot both keep it.
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.secret, current.secret)))
    .returning();
  if (!row) throw new ConflictError("The secret was just rotated. Reload the page to see the endpoint.");
  return { ...toEndpointView(row), secret };
}

/** The secrets that sign a request now: the current one, and the previous one during its grace period. */
export async function signingSecrets(
  ring: SecretKeyRing,
  row: Pick<EndpointRow, "id" | "secret" | "previousSecret" | "previousSecretExpiresAt">,
  now: number,
): Promise<string[]> {
  const secrets = [await openSecret(ring, row.secret, row.id)];
  if (row.previousSecret && row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > now) {
    secrets.push(await openSecret(ring, row.previousSecret, row.id));
  }
  return secrets;
}

/**
 * The key ring that encrypts webhook signing secrets at rest (decision 0037): the Worker secret
 * WEBHOOK_SECRETS_KEY. Without it, or with the public development key outside development, webhooks do
 * not start: endpoints cannot be added (503) and the queue consumer sends nothing (deliveries wait in D1).
 */
import { DEVELOPMENT_WEBHOOK_SECRETS_KEY } from "../../../src/features/webhooks/dev-key";
import {
  decryptSecret,
  encryptSecret,
  loadSecretKeyRing,
  SecretBoxError,
  type SecretKeyRing,
  WEBHOOK_SECRETS_KEY_NAME,
} from "../../../src/features/webhooks/secret-box";
import type { Env } from "../../env";
import { UnavailableError } from "../../errors";

export type WebhookKeyState = "ready" | "missing" | "development-key";

export const WEBHOOKS_UNAVAILABLE =
  "Webhooks are not available right now: the shop has not finished setting them up. Please contact support.";

/** Whether WEBHOOK_SECRETS_KEY lets webhooks run here (for /api/health and the refusals below). */
export function webhookKeyState(env: Pick<Env, "APP_ENV" | "WEBHOOK_SECRETS_KEY">): WebhookKeyState {
  const value = env.WEBHOOK_SECRETS_KEY?.trim();
  if (!value) return "missing";
  const entries = value.split(",").map((entry) => entry.trim());
  if (env.APP_ENV !== "development" && entries.includes(DEVELOPMENT_WEBHOOK_SECRETS_KEY)) return "development-key";
  return "ready";
}

const rings = new Map<string, Promise<SecretKeyRing>>();

/**
 * The key ring, read once per isolate. Throws UnavailableError (503, a message for the buyer) when the
 * key is missing, malformed or the development key outside development; the operator's reason is logged.
 */
export async function webhookKeyRing(env: Pick<Env, "APP_ENV" | "WEBHOOK_SECRETS_KEY">): Promise<SecretKeyRing> {
  const state = webhookKeyState(env);
  if (state !== "ready") {
    console.error(
      state === "missing"
        ? `${WEBHOOK_SECRETS_KEY_NAME} is not set: webhooks are off (docs/webhooks.md, "For operators").`
        : `${WEBHOOK_SECRETS_KEY_NAME} holds the public development key outside development: webhooks are off.`,
    );
    throw new UnavailableError(WEBHOOKS_UNAVAILABLE);
  }
  const value = env.WEBHOOK_SECRETS_KEY ?? "";
  let ring = rings.get(value);
  if (!ring) {
    ring = loadSecretKeyRing(value);
    rings.set(value, ring);
  }
  try {
    return await ring;
  } catch (error) {
    rings.delete(value);
    console.error(error instanceof SecretBoxError ? error.message : error);
    throw new UnavailableError(WEBHOOKS_UNAVAILABLE);
  }
}

/** A signing secret sealed for the endpoint `endpointId` (a copy in another row does not decrypt). */
export const sealSecret = (ring: SecretKeyRing, secret: string, endpointId: string) =>
  encryptSecret(ring, secret, `webhook_endpoints:${endpointId}`);

export const openSecret = (ring: SecretKeyRing, stored: string, endpointId: string) =>
  decryptSecret(ring, stored, `webhook_endpoints:${endpointId}`);

/**
 * The webhook rules run in workerd, not only in Node (decision 0037): signing and
 * verifying with WebCrypto, secrets at rest under AES-GCM, and the OpenAPI section from zod with the
 * Worker's jitless zod. The delivery itself (D1, Queues, routes) is wired on top of these.
 */
import { describe, expect, it } from "vitest";
import { newWebhookEventId, webhookEventIdFor } from "../../../../src/features/webhook-outbox/events";
import { buildWebhookEvent } from "../../../../src/features/webhooks/schemas/webhooks";
import { webhooksOpenApi } from "../../../../src/features/webhooks/schemas/webhooks-openapi";
import {
  decryptSecret,
  encryptSecret,
  generateSecretsKey,
  loadSecretKeyRing,
} from "../../../../src/features/webhooks/secret-box";
import {
  generateWebhookSecret,
  signWebhook,
  verifyWebhookSignature,
  webhookSignatureHeader,
} from "../../../../src/features/webhooks/signature";

describe("webhook rules in the Workers runtime", () => {
  it("signs and verifies, with two secrets, and refuses a tampered body", async () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = JSON.stringify(
      buildWebhookEvent("test", { message: "hi" }, { id: newWebhookEventId(), createdAt: 0 }),
    );
    const header = await webhookSignatureHeader([current, previous], body, 1_795_000_000);
    expect(header).toBe(
      `t=1795000000,v1=${await signWebhook(current, body, 1_795_000_000)},v1=${await signWebhook(previous, body, 1_795_000_000)}`,
    );
    expect((await verifyWebhookSignature(header, body, [previous], 1_795_000_100)).ok).toBe(true);
    expect((await verifyWebhookSignature(header, `${body} `, [current], 1_795_000_100)).ok).toBe(false);
    expect(await webhookEventIdFor("order.paid", "ord_1")).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it("encrypts a secret for one row and decrypts it only there", async () => {
    const ring = await loadSecretKeyRing(generateSecretsKey("k1"));
    const secret = generateWebhookSecret();
    const stored = await encryptSecret(ring, secret, "endpoint-1");
    expect(await decryptSecret(ring, stored, "endpoint-1")).toBe(secret);
    await expect(decryptSecret(ring, stored, "endpoint-2")).rejects.toThrow(/could not be decrypted/);
  });

  it("generates the OpenAPI webhooks section", () => {
    const { webhooks, components } = webhooksOpenApi();
    expect(Object.keys(webhooks)).toContain("transfer.billable");
    expect(components.schemas).toHaveProperty("LeadPurchasedEvent");
  });
});

/**
 * Webhook signatures and secrets at rest (decision 0037). The reference
 * HMAC is Node's own `createHmac`, which is what docs/webhooks.md tells buyers to use.
 */
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  decryptSecret,
  encryptSecret,
  generateSecretsKey,
  loadSecretKeyRing,
  needsReencryption,
  SecretBoxError,
  storedSecretKeyId,
} from "../secret-box";
import {
  generateWebhookSecret,
  parseSignatureHeader,
  signWebhook,
  unixSeconds,
  verifyWebhookSignature,
  WEBHOOK_SECRET_PATTERN,
  webhookSignatureHeader,
} from "../signature";

const SECRET = "whsec_Q2hlY2tpbmcgdGhlIHNpZ25hdHVyZSBvZiBhIHdlYmhvb2s";
const OLD_SECRET = "whsec_b2xkIHNlY3JldCBzdGlsbCBpbiBpdHMgZ3JhY2UgcGVyaW9k";
const BODY = JSON.stringify({ id: "evt_1", type: "test", data: { message: "Grüße" } });
const T = 1_795_000_000;
const nodeHmac = (secret: string, body: string, t: number) =>
  createHmac("sha256", secret).update(`${t}.${body}`, "utf8").digest("hex");

describe("Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256 of 't.body'>", () => {
  it("signs like Node's createHmac over '<t>.<body>' with the whole secret as key", async () => {
    expect(await signWebhook(SECRET, BODY, T)).toBe(nodeHmac(SECRET, BODY, T));
    expect(await signWebhook(SECRET, new TextEncoder().encode(BODY), T)).toBe(nodeHmac(SECRET, BODY, T));
    expect(await webhookSignatureHeader([SECRET], BODY, T)).toBe(`t=${T},v1=${nodeHmac(SECRET, BODY, T)}`);
    await expect(signWebhook(SECRET, BODY, 1.5)).rejects.toThrow(RangeError);
    await expect(webhookSignatureHeader([], BODY, T)).rejects.toThrow();
  });

  it("accepts the right body and secret within the 5-minute tolerance, either side of the clock", async () => {
    const header = await webhookSignatureHeader([SECRET], BODY, T);
    expect(await verifyWebhookSignature(header, BODY, [SECRET], T)).toEqual({ ok: true, timestamp: T });
    expect((await verifyWebhookSignature(header, BODY, [SECRET], T + 300)).ok).toBe(true);
    expect((await verifyWebhookSignature(header, BODY, [SECRET], T - 300)).ok).toBe(true);
    expect((await verifyWebhookSignature(header, Buffer.from(BODY), [SECRET], T)).ok).toBe(true);
  });

  it("refuses a tampered body", async () => {
    const header = await webhookSignatureHeader([SECRET], BODY, T);
    const tampered = BODY.replace("Grüße", "Grüsse");
    expect(await verifyWebhookSignature(header, tampered, [SECRET], T)).toMatchObject({
      ok: false,
      reason: "mismatch",
    });
    expect((await verifyWebhookSignature(header, `${BODY} `, [SECRET], T)).ok).toBe(false);
  });

  it("refuses an old (or future) timestamp, and a timestamp changed to look fresh", async () => {
    const header = await webhookSignatureHeader([SECRET], BODY, T);
    expect(await verifyWebhookSignature(header, BODY, [SECRET], T + 301)).toMatchObject({
      ok: false,
      reason: "outside_tolerance",
    });
    expect((await verifyWebhookSignature(header, BODY, [SECRET], T - 301)).ok).toBe(false);
    expect((await verifyWebhookSignature(header, BODY, [SECRET], T + 3600, 7200)).ok).toBe(true);
    const replayed = header.replace(`t=${T}`, `t=${T + 3600}`);
    expect(await verifyWebhookSignature(replayed, BODY, [SECRET], T + 3600)).toMatchObject({ reason: "mismatch" });
  });

  it("refuses the wrong secret", async () => {
    const header = await webhookSignatureHeader([SECRET], BODY, T);
    expect(await verifyWebhookSignature(header, BODY, [OLD_SECRET], T)).toMatchObject({
      ok: false,
      reason: "mismatch",
    });
    expect((await verifyWebhookSignature(header, BODY, [], T)).ok).toBe(false);
    expect((await verifyWebhookSignature(header, BODY, [""], T)).ok).toBe(false);
  });

  it("with two secrets (a rotation's grace period): signs with both, and a receiver holding either accepts", async () => {
    const header = await webhookSignatureHeader([SECRET, OLD_SECRET], BODY, T);
    expect(parseSignatureHeader(header)?.signatures).toEqual([
      nodeHmac(SECRET, BODY, T),
      nodeHmac(OLD_SECRET, BODY, T),
    ]);
    expect((await verifyWebhookSignature(header, BODY, [SECRET], T)).ok).toBe(true);
    expect((await verifyWebhookSignature(header, BODY, [OLD_SECRET], T)).ok).toBe(true);
    // A receiver that already has both accepts a header signed with only the new one.
    const newOnly = await webhookSignatureHeader([SECRET], BODY, T);
    expect((await verifyWebhookSignature(newOnly, BODY, [OLD_SECRET, SECRET], T)).ok).toBe(true);
  });

  it("refuses headers that are missing or malformed, and skips unknown schemes", async () => {
    const good = nodeHmac(SECRET, BODY, T);
    for (const header of [
      undefined,
      "",
      `v1=${good}`,
      `t=${T}`,
      `t=abc,v1=${good}`,
      `t=${T},t=${T},v1=${good}`,
      `t=${T},v1=${good.slice(2)}`,
      `t=${T},v1=${good}zz`,
      `t=${T};v1=${good}`,
      `t=${T},v1=${good},${"v1=".padEnd(2100, "a")}`,
    ]) {
      expect(await verifyWebhookSignature(header, BODY, [SECRET], T), String(header)).toMatchObject({
        ok: false,
        reason: "malformed",
      });
    }
    expect((await verifyWebhookSignature(`t=${T}, v0=abc, v1=${good.toUpperCase()}`, BODY, [SECRET], T)).ok).toBe(true);
  });

  it("makes secrets of whsec_ and 32 random bytes", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(WEBHOOK_SECRET_PATTERN);
    expect(generateWebhookSecret()).not.toBe(secret);
    expect(generateWebhookSecret((n) => new Uint8Array(n).fill(0xff))).toBe(`whsec_${"_".repeat(42)}8`);
    expect(unixSeconds(1_795_000_000_999)).toBe(1_795_000_000);
  });
});

describe("the Node example in docs/webhooks.md", () => {
  it("verifies what the shop signs, with the 5-minute tolerance, and refuses the rest", async () => {
    const docs = readFileSync(new URL("../../../../docs/webhooks.md", import.meta.url), "utf8");
    const example = /```js\n([\s\S]*?export function verify[\s\S]*?)```/.exec(docs)?.[1];
    expect(example).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), "webhook-docs-"));
    try {
      writeFileSync(join(dir, "verify.mjs"), example ?? "");
      const { verify } = (await import(join(dir, "verify.mjs"))) as {
        verify: (header: string | undefined, body: Buffer, secret: string, now?: number) => boolean;
      };
      const body = Buffer.from(BODY);
      const header = await webhookSignatureHeader([SECRET, OLD_SECRET], BODY, T);
      expect(verify(header, body, SECRET, T)).toBe(true);
      expect(verify(header, body, OLD_SECRET, T + 300)).toBe(true);
      expect(verify(header, body, SECRET, T + 301)).toBe(false);
      expect(verify(header, Buffer.from(`${BODY} `), SECRET, T)).toBe(false);
      expect(verify(header, body, "whsec_wrong", T)).toBe(false);
      expect(verify(undefined, body, SECRET, T)).toBe(false);
      expect(verify(`t=${T}`, body, SECRET, T)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("secrets at rest: AES-GCM under WEBHOOK_SECRETS_KEY, with a key id for rotation", () => {
  const KEY_1 = `k1:${Buffer.alloc(32, 1).toString("base64")}`;
  const KEY_2 = `k2:${Buffer.alloc(32, 2).toString("base64url")}`;

  it("encrypts with the current key and decrypts only for the same row", async () => {
    const ring = await loadSecretKeyRing(KEY_1);
    const stored = await encryptSecret(ring, SECRET, "endpoint-1");
    expect(stored).toMatch(/^enc1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain(SECRET.slice(6, 20));
    expect(await encryptSecret(ring, SECRET, "endpoint-1")).not.toBe(stored); // a fresh IV each time
    expect(await decryptSecret(ring, stored, "endpoint-1")).toBe(SECRET);
    await expect(decryptSecret(ring, stored, "endpoint-2")).rejects.toThrow(SecretBoxError);
  });

  it("refuses an altered value, plain text and an unknown key", async () => {
    const ring = await loadSecretKeyRing(KEY_1);
    const stored = await encryptSecret(ring, SECRET, "e");
    const last = stored.at(-1) === "A" ? "B" : "A";
    await expect(decryptSecret(ring, `${stored.slice(0, -1)}${last}`, "e")).rejects.toThrow(/could not be decrypted/);
    await expect(decryptSecret(ring, SECRET, "e")).rejects.toThrow(/not an encrypted value/);
    const other = await loadSecretKeyRing(KEY_2);
    await expect(decryptSecret(other, stored, "e")).rejects.toThrow(/needs key k1/);
  });

  it("rotates: the new key first encrypts, the old one still decrypts until values are re-encrypted", async () => {
    const before = await loadSecretKeyRing(KEY_1);
    const stored = await encryptSecret(before, SECRET, "e");
    const during = await loadSecretKeyRing(`${KEY_2}, ${KEY_1}`);
    expect(during.currentKeyId).toBe("k2");
    expect(needsReencryption(during, stored)).toBe(true);
    expect(await decryptSecret(during, stored, "e")).toBe(SECRET);
    const again = await encryptSecret(during, await decryptSecret(during, stored, "e"), "e");
    expect(storedSecretKeyId(again)).toBe("k2");
    expect(needsReencryption(during, again)).toBe(false);
    expect(await decryptSecret(await loadSecretKeyRing(KEY_2), again, "e")).toBe(SECRET);
  });

  it("says what is wrong with the Worker secret", async () => {
    await expect(loadSecretKeyRing(undefined)).rejects.toThrow(/WEBHOOK_SECRETS_KEY is not set/);
    await expect(loadSecretKeyRing(Buffer.alloc(32).toString("base64"))).rejects.toThrow(/<key id>:<base64/);
    await expect(loadSecretKeyRing(`k1:${Buffer.alloc(16).toString("base64")}`)).rejects.toThrow(/not 32 bytes/);
    await expect(loadSecretKeyRing(`k1:not base64!`)).rejects.toThrow(SecretBoxError);
    await expect(loadSecretKeyRing(`${KEY_1},${KEY_1}`)).rejects.toThrow(/appears twice/);
    const made = generateSecretsKey("k3");
    expect(made).toMatch(/^k3:[A-Za-z0-9+/]{43}=$/);
    expect((await loadSecretKeyRing(made)).currentKeyId).toBe("k3");
  });
});

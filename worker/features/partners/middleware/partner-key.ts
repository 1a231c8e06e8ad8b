/**
 * The partner API's credential: `Authorization: Bearer <key>`, never a session cookie.
 * Every keyed request is rate-limited per key and per partner (across all its keys) by the one
 * fixed-window limiter, and logged with its key id. A suspended partner's keys answer 403.
 */
import { createMiddleware } from "hono/factory";
import type { Deps } from "../../../deps";
import type { Env } from "../../../env";
import { RateLimitedError, UnauthenticatedError } from "../../../errors";
import {
  admit,
  countsInBinding,
  PARTNER_KEY_RULE,
  PARTNER_RULE,
  windowHit,
  withinRule,
} from "../../../services/rate-limiter";
import {
  activeKeyHash,
  activePartnerOfKey,
  hashApiKey,
  type KeyOwner,
  keyOwnerOf,
  keyOwnerQuery,
  touchApiKey,
} from "../api-keys";

export type PartnerApiBindings = { Bindings: Env; Variables: { deps: Deps; partnerKey: KeyOwner } };

/** What the limiter said about one request: the key's own allowance and its partner's. */
interface Admission {
  owner: KeyOwner;
  perKey: boolean;
  perPartner: boolean;
}

/**
 * Looks the key up and counts one request of it and of its partner. In production the bindings count (the
 * key's beside the lookup, the partner's once the lookup named it); elsewhere one D1 batch does all three.
 * Unknown and revoked keys are 401 and a suspended partner's keys 403, before any limit is told.
 */
async function admission(deps: Deps, keyHash: string): Promise<Admission> {
  if (countsInBinding(deps, PARTNER_KEY_RULE)) {
    const [rows, perKey] = await Promise.all([keyOwnerQuery(deps, keyHash), admit(deps, PARTNER_KEY_RULE, keyHash)]);
    const owner = keyOwnerOf(rows);
    return { owner, perKey, perPartner: await admit(deps, PARTNER_RULE, owner.partnerId) };
  }
  const [rows, keyWindow, partnerWindow] = await deps.db.batch([
    keyOwnerQuery(deps, keyHash),
    windowHit(deps, PARTNER_KEY_RULE, activeKeyHash(keyHash)),
    windowHit(deps, PARTNER_RULE, activePartnerOfKey(keyHash)),
  ]);
  return {
    owner: keyOwnerOf(rows),
    perKey: withinRule(PARTNER_KEY_RULE, keyWindow),
    perPartner: withinRule(PARTNER_RULE, partnerWindow),
  };
}

/** The 429's message: which allowance ran out. */
function limitMessage({ perKey }: Admission): string {
  return perKey
    ? `Too many requests: at most ${PARTNER_RULE.limit} a second across all of your API keys. Slow down and retry.`
    : `Too many requests: at most ${PARTNER_KEY_RULE.limit} a second for each API key. Slow down and retry.`;
}

export const requirePartnerKey = createMiddleware<PartnerApiBindings>(async (c, next) => {
  const started = Date.now();
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("Authorization") ?? "");
  if (!match?.[1]) {
    throw new UnauthenticatedError("Send your API key as 'Authorization: Bearer <key>'.");
  }
  const { deps } = c.var;
  const admitted = await admission(deps, await hashApiKey(match[1]));
  const { owner } = admitted;
  if (!admitted.perKey || !admitted.perPartner) {
    console.log(
      JSON.stringify({ partnerApi: c.req.path, method: c.req.method, apiKeyId: owner.apiKeyId, status: 429 }),
    );
    throw new RateLimitedError(limitMessage(admitted));
  }
  // The key's last use is written at most once a minute, after the response.
  const touch = touchApiKey(deps, owner);
  if (touch) c.executionCtx.waitUntil(touch.then(() => undefined));
  c.set("partnerKey", owner);
  await next();
  const ms = Date.now() - started;
  // The Worker's own time for the request (the bench reads it beside the client's round trip).
  c.res.headers.set("Server-Timing", `app;dur=${ms}`);
  console.log(
    JSON.stringify({
      partnerApi: c.req.path,
      method: c.req.method,
      apiKeyId: owner.apiKeyId,
      partnerId: owner.partnerId,
      status: c.res.status,
      ms,
    }),
  );
});

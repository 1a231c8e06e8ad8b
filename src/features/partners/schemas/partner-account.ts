/** Partner accounts: the invitation an approval sends, and the password it sets. */

import { requiredString } from "../../../domain/schemas/common";
import { z } from "../../../domain/schemas/zod";
import { changePasswordSchema } from "../../accounts/index";
import { dollarsToCents } from "../../orders/index";
import { INVITATION_INVALID, INVITATION_TTL_HOURS } from "../partner";

export { INVITATION_INVALID, INVITATION_TTL_HOURS };

const invitationToken = requiredString("The invitation link is invalid or missing", 1, 200);

export const invitationTokenSchema = z.object({ token: invitationToken });

/** The password rule is the accounts' own (auth.ts), whatever it becomes. */
export const acceptInvitationSchema = z.object({
  token: invitationToken,
  password: changePasswordSchema.shape.newPassword,
});

/** What the invitation page shows before the partner chooses a password. */
export type InvitationCheck = { valid: false } | { valid: true; username: string; businessName: string };

/**
 * The application's free-text pay per transfer ("$20", "25.50", "$1,000 per call") in cents, or null
 * when it holds no amount. The first amount in the text counts.
 */
export function payPerTransferCents(text: string): number | null {
  const match = text.replaceAll(",", "").match(/\d+(?:\.\d{1,2})?/);
  if (!match) return null;
  const cents = dollarsToCents(Number(match[0]));
  return cents !== null && Number.isSafeInteger(cents) && cents > 0 ? cents : null;
}

/** `POST /api/partner/keys`: the key's name (its length rule is the API-key service's). */
/** A key's name: 1 to MAX_API_KEY_NAME characters once trimmed (checked here only). */
export const MAX_API_KEY_NAME = 60;
const API_KEY_NAME_LENGTH = `Give the key a name of 1 to ${MAX_API_KEY_NAME} characters.`;
export const newApiKeySchema = z.object({
  name: z
    .string({ error: "Give the key a name" })
    .trim()
    .min(1, API_KEY_NAME_LENGTH)
    .max(MAX_API_KEY_NAME, API_KEY_NAME_LENGTH),
});

/** `GET /api/partner/transfers?before=`: the routedAt (epoch ms) of the last transfer already shown. */
export const partnerTransfersQuerySchema = z.object({
  before: z.coerce.number({ error: "before must be a time in milliseconds" }).int().positive().optional(),
});

/** A partner has at most this many active (unrevoked) API keys. */
export const MAX_ACTIVE_API_KEYS = 10;
export const TOO_MANY_API_KEYS = `A partner may have at most ${MAX_ACTIVE_API_KEYS} active API keys. Revoke one you no longer use first.`;

/** What the partner API answers (403) to every key of a suspended partner. */
export const PARTNER_SUSPENDED =
  "This partner account is suspended: its API keys are refused until we reinstate it. Contact support for details.";

/** An API key as lists show it: never the key itself, only its prefix. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

/** A partner account in the admin's aff-network tab. */
export interface AdminPartnerView {
  id: string;
  userId: string;
  applicationId: string | null;
  businessName: string;
  username: string;
  suspendedAt: number | null;
  activeKeys: number;
  /** Pings without `consent.trustedFormUrl` answer 400 (decision 0041). */
  requireTrustedForm: boolean;
}

/** `POST /api/admin/partners/:id/trusted-form`: whether the partner's pings must carry a TrustedForm URL. */
export const trustedFormRuleSchema = z.object({
  required: z.boolean({ error: "required must be true or false" }),
});

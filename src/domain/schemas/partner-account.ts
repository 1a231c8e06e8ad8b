/** Partner accounts (issue 15 item 1): the invitation an approval sends, and the password it sets. */
import { INVITATION_INVALID, INVITATION_TTL_HOURS } from "../partner";
import { dollarsToCents } from "../pricing";
import { changePasswordSchema } from "./auth";
import { requiredString } from "./common";
import { z } from "./zod";

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
export const newApiKeySchema = z.object({ name: z.string({ error: "Give the key a name" }).max(200) });

/** `GET /api/partner/transfers?before=`: the routedAt (epoch ms) of the last transfer already shown. */
export const partnerTransfersQuerySchema = z.object({
  before: z.coerce.number({ error: "before must be a time in milliseconds" }).int().positive().optional(),
});

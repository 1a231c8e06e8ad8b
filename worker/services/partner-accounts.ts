/**
 * Partner accounts (issue 15 item 1): approving an application creates the partner's user and partner
 * record and e-mails a single-use invitation; the invitation sets the first password.
 */
import { and, eq, sql } from "drizzle-orm";
import type { ApplicationDecision } from "../../src/domain/partner";
import {
  INVITATION_INVALID,
  INVITATION_TTL_HOURS,
  type InvitationCheck,
  payPerTransferCents,
} from "../../src/domain/schemas/partner-account";
import { APPLICATION_TIME_ZONES } from "../../src/domain/transfers";
import type { PublicUser } from "../../src/domain/user";
import { database } from "../db/client";
import { partnerApplications, partners, singleUseTokens, users } from "../db/schema";
import type { Env } from "../env";
import { ConflictError, InvalidError, NotFoundError } from "../errors";
import { sendMail } from "./mail";
import { consumeToken, mintToken, peekToken } from "./single-use-tokens";
import { findUserById, setPassword, toPublicUser } from "./users";

export const INVITATION_TTL_MS = INVITATION_TTL_HOURS * 60 * 60 * 1000;
/** Never matches a password (verifyPassword refuses unknown schemes): the account has none until invited. */
const NO_PASSWORD_YET = "!invited";

async function currentApplication(env: Env, applicationId: string) {
  const application = await database(env.DB)
    .select()
    .from(partnerApplications)
    .where(eq(partnerApplications.id, applicationId))
    .get();
  if (!application) throw new NotFoundError("Application not found");
  if (application.status !== "pending") throw new ConflictError(`This application was already ${application.status}.`);
  return application;
}

/**
 * Records the admin's decision on a pending application. Approval creates the partner's account
 * (username = the contact e-mail, no password yet) and its partner record in one transaction, then
 * e-mails the invitation link (to `origin`/partner-invitation).
 */
export async function decideApplication(
  env: Env,
  applicationId: string,
  decision: ApplicationDecision,
  reviewerId: string | null,
  origin: string,
): Promise<void> {
  const db = database(env.DB);
  const application = await currentApplication(env, applicationId);
  const now = new Date();
  const decided = db
    .update(partnerApplications)
    .set({
      status: decision,
      reviewedAt: now,
      reviewedBy: reviewerId,
      approvedAt: decision === "approved" ? now : null,
    })
    .where(and(eq(partnerApplications.id, applicationId), eq(partnerApplications.status, "pending")));
  if (decision === "rejected") {
    await decided;
    return;
  }

  const email = application.contactEmail.toLowerCase();
  const taken = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email} OR lower(${users.username}) = ${email}`)
    .get();
  if (taken) {
    throw new ConflictError(
      `An account with the e-mail ${application.contactEmail} already exists, so this partner cannot get one. Ask them for another contact e-mail.`,
    );
  }
  const payCents = payPerTransferCents(application.payPerTransfer);
  if (payCents === null) {
    throw new InvalidError(
      `The pay per transfer "${application.payPerTransfer}" is not an amount in dollars, so partner payouts cannot be computed.`,
    );
  }

  const userId = crypto.randomUUID();
  const invitation = await mintToken("partner_invitation", INVITATION_TTL_MS, { userId, email }, now.getTime());
  const [firstName = "", ...rest] = application.mainContact.trim().split(/\s+/);
  try {
    await db.batch([
      decided,
      db.insert(users).values({
        id: userId,
        username: email,
        email,
        passwordHash: NO_PASSWORD_YET,
        firstName,
        lastName: rest.join(" "),
        phone: application.contactPhone,
        agencyName: application.businessName,
        role: "Partner",
        state: application.state,
        accountType: "partner",
      }),
      db.insert(partners).values({
        id: crypto.randomUUID(),
        userId,
        applicationId,
        businessName: application.businessName,
        didNumber: application.didNumber,
        dailyCallCap: application.dailyCallCap,
        payPerTransferCents: payCents,
        paymentTerms: application.paymentTerms,
        timeZone: APPLICATION_TIME_ZONES[application.timeZone],
      }),
      db.insert(singleUseTokens).values(invitation.row),
    ]);
  } catch (error) {
    // Another admin decided (or the address was taken) in the meantime: nothing was written.
    await currentApplication(env, applicationId);
    throw error;
  }

  try {
    await sendMail(env, {
      to: email,
      subject: "Your partner account is approved",
      text: [
        `Hello ${application.mainContact},`,
        "",
        `${application.businessName} is approved as a transfer partner. Your username is ${email}.`,
        "Open this link to choose your password and enter the partner portal:",
        `${origin}/partner-invitation?token=${invitation.token}`,
        "",
        `The link works once and expires in ${INVITATION_TTL_HOURS} hours.`,
      ].join("\n"),
    });
  } catch (error) {
    // The approval stands; the outbox keeps the message for a resend.
    console.error("Partner invitation e-mail failed", error);
  }
}

/** What the invitation page may show: the partner's username and business while the link is usable. */
export async function checkInvitation(env: Env, token: string): Promise<InvitationCheck> {
  const db = database(env.DB);
  const row = await peekToken(db, "partner_invitation", token);
  if (!row?.userId) return { valid: false };
  const partner = await db
    .select({ username: users.username, businessName: partners.businessName })
    .from(users)
    .innerJoin(partners, eq(partners.userId, users.id))
    .where(eq(users.id, row.userId))
    .get();
  return partner ? { valid: true, ...partner } : { valid: false };
}

/** Uses the invitation once to set the partner's password; answers the partner's account. */
export async function acceptInvitation(env: Env, token: string, password: string): Promise<PublicUser> {
  const row = await consumeToken(database(env.DB), "partner_invitation", token);
  const user = row?.userId ? await findUserById(env.DB, row.userId) : undefined;
  if (user?.accountType !== "partner") throw new InvalidError(INVITATION_INVALID);
  await setPassword(env.DB, user.id, password);
  return toPublicUser(user);
}

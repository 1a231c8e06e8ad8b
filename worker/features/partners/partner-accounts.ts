/**
 * Partner accounts: approving an application creates the partner's user and partner
 * record and e-mails a single-use invitation; the invitation sets the first password.
 */
import { and, eq } from "drizzle-orm";
import { APPLICATION_TIME_ZONES } from "../../../src/domain/time-zones";
import type { PublicUser } from "../../../src/domain/user";
import type { ApplicationDecision } from "../../../src/features/partners/partner";
import {
  INVITATION_INVALID,
  type InvitationCheck,
  payPerTransferCents,
} from "../../../src/features/partners/schemas/partner-account";
import { partnerApplications, partners, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, InvalidError, NotFoundError } from "../../errors";
import { emails } from "../../services/email-templates";
import { sendMail } from "../../services/mail";
import { newLink, peekLink, redeemLink } from "../../services/single-use-links";
import { findUserById, toPublicUser } from "../../services/users";
import { awaitsPassword, createUser, setPassword } from "../accounts/index";

async function currentApplication(deps: Deps, applicationId: string) {
  const application = await deps.db
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
  deps: Deps,
  applicationId: string,
  decision: ApplicationDecision,
  reviewerId: string | null,
  origin: string,
): Promise<void> {
  const { db } = deps;
  const application = await currentApplication(deps, applicationId);
  const now = new Date(deps.now);
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
  const payCents = payPerTransferCents(application.payPerTransfer);
  if (payCents === null) {
    throw new InvalidError(
      `The pay per transfer "${application.payPerTransfer}" is not an amount in dollars, so partner payouts cannot be computed.`,
    );
  }

  const userId = crypto.randomUUID();
  const invitation = await newLink(deps, "partner_invitation", { userId, email });
  const [firstName = "", ...rest] = application.mainContact.trim().split(/\s+/);
  const partner = {
    id: crypto.randomUUID(),
    userId,
    applicationId,
    businessName: application.businessName,
    didNumber: application.didNumber,
    dailyCallCap: application.dailyCallCap,
    payPerTransferCents: payCents,
    paymentTerms: application.paymentTerms,
    timeZone: APPLICATION_TIME_ZONES[application.timeZone],
  };
  try {
    await createUser(
      deps,
      {
        id: userId,
        username: email,
        email,
        password: null, // the invitation sets it
        firstName,
        lastName: rest.join(" "),
        phone: application.contactPhone,
        agencyName: application.businessName,
        role: "Partner",
        state: application.state,
        accountType: "partner",
      },
      {
        alongside: () => [decided, db.insert(partners).values(partner), invitation.insert],
        conflictError: () =>
          new ConflictError(
            `An account with the e-mail ${application.contactEmail} already exists, so this partner cannot get one. Ask them for another contact e-mail.`,
          ),
      },
    );
  } catch (error) {
    // Another admin decided (or the address was taken) in the meantime: nothing was written.
    await currentApplication(deps, applicationId);
    throw error;
  }
  await sendInvitation(deps, origin, { ...application, username: email }, invitation.path);
}

/** E-mails the invitation; a failure is logged (the admin can re-send it). */
async function sendInvitation(
  deps: Deps,
  origin: string,
  partner: { contactEmail: string; mainContact: string; businessName: string; username: string },
  linkPath: string,
): Promise<void> {
  try {
    await sendMail(
      deps,
      partner.username,
      emails.partnerInvitation(origin, {
        contactName: partner.mainContact,
        businessName: partner.businessName,
        username: partner.username,
        linkPath,
      }),
    );
  } catch (error) {
    console.error("Partner invitation e-mail failed", error);
  }
}

/** The partner account of an approved application, with its business name. */
async function partnerOfApplication(deps: Deps, applicationId: string) {
  return deps.db
    .select({ user: users, businessName: partners.businessName })
    .from(partners)
    .innerJoin(users, eq(users.id, partners.userId))
    .where(eq(partners.applicationId, applicationId))
    .get();
}

/**
 * An admin sends a partner a new invitation (the first was lost or ran out): only while the partner has
 * not chosen a password yet. Earlier invitations keep working until one of them is used.
 */
export async function resendInvitation(deps: Deps, applicationId: string, origin: string): Promise<void> {
  const found = await partnerOfApplication(deps, applicationId);
  if (!found) throw new NotFoundError("This application has no partner account (it is not approved).");
  if (!awaitsPassword(found.user)) {
    throw new ConflictError(
      "This partner has already set a password. They can use 'Forgot password' to choose a new one.",
    );
  }
  const invitation = await newLink(deps, "partner_invitation", { userId: found.user.id, email: found.user.email });
  await invitation.insert;
  const application = await deps.db
    .select({ mainContact: partnerApplications.mainContact })
    .from(partnerApplications)
    .where(eq(partnerApplications.id, applicationId))
    .get();
  await sendMail(
    deps,
    found.user.email,
    emails.partnerInvitation(origin, {
      contactName: application?.mainContact ?? found.user.firstName,
      businessName: found.businessName,
      username: found.user.username,
      linkPath: invitation.path,
    }),
  );
}

/** What the invitation page may show: the partner's username and business while the link is usable. */
export async function checkInvitation(deps: Deps, token: string): Promise<InvitationCheck> {
  const row = await peekLink(deps, "partner_invitation", token);
  if (!row?.userId) return { valid: false };
  const partner = await deps.db
    .select({ username: users.username, businessName: partners.businessName })
    .from(users)
    .innerJoin(partners, eq(partners.userId, users.id))
    .where(eq(users.id, row.userId))
    .get();
  return partner ? { valid: true, ...partner } : { valid: false };
}

/**
 * Sets the partner's password through the invitation (once); answers the partner's account. A password
 * the rule refuses leaves the invitation usable.
 */
export async function acceptInvitation(deps: Deps, token: string, password: string): Promise<PublicUser> {
  const invitation = { purpose: "partner_invitation" as const, token, invalid: INVITATION_INVALID };
  return redeemLink(deps, invitation, async (row) => {
    const user = row.userId ? await findUserById(deps, row.userId) : undefined;
    if (user?.accountType !== "partner") throw new InvalidError(INVITATION_INVALID);
    await setPassword(deps, user.id, password);
    return toPublicUser(user);
  });
}

/**
 * The delivery-setup link (docs/decisions/0028): e-mailed when a paid live-transfer
 * order waits for its settings, re-sent by an admin, single use for 7 days. The link proves only that
 * its holder reads the order's mailbox, so it never signs anyone in by itself: the order's own account
 * needs its password (or its session), an order bought without an account gets a new one or goes to an
 * existing buyer account whose password is given, and an administrator account is never signed in here.
 * An order is never attached to an account because the e-mail matches.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { PublicUser } from "../../../src/domain/user";
import {
  deliverySettingsFromDetails,
  inputFromSettings,
  SETUP_ACCOUNT_NEEDED,
  SETUP_LINK_INVALID,
  SETUP_NOT_A_BUYER_ACCOUNT,
  SETUP_PASSWORD_NEEDED,
  SETUP_SIGN_IN_FIRST,
  type SetupAccount,
  type SetupLinkCheck,
  settingsFromInput,
} from "../../../src/features/transfers/delivery-setup";
import type {
  DeliverySettingsValues,
  DeliverySetupRequest,
} from "../../../src/features/transfers/schemas/delivery-setup";
import type { Database } from "../../db/client";
import { orders } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, ForbiddenError, InvalidError, NotFoundError } from "../../errors";
import { emails } from "../../services/email-templates";
import { sendMail } from "../../services/mail";
import { newLink, peekLink, redeemLink } from "../../services/single-use-links";
import { findUserById, toPublicUser } from "../../services/users";
import { checkCredentials, createUser } from "../accounts/index";
import { deliverySettingsStatements, getOrderDelivery, paidLiveTransferOrder } from "./order-delivery";

type OrderRecord = typeof orders.$inferSelect;
type UserRecord = NonNullable<Awaited<ReturnType<typeof findUserById>>>;

/** E-mails the buyer a new single-use link to /delivery-setup for this order (nothing without an e-mail). */
export async function sendSetupLink(
  deps: Deps,
  order: Pick<OrderRecord, "id" | "userId" | "email" | "quantity">,
  origin: string,
): Promise<void> {
  if (!order.email) return;
  const link = await newLink(deps, "delivery_setup", {
    orderId: order.id,
    userId: order.userId,
    email: order.email,
  });
  await link.insert;
  await sendMail(
    deps,
    order.email,
    emails.deliverySetup(origin, { orderId: order.id, quantity: order.quantity, linkPath: link.path }),
  );
}

async function findOrder(db: Database, orderId: string): Promise<OrderRecord | undefined> {
  return db.select().from(orders).where(eq(orders.id, orderId)).get();
}

/** An admin e-mails the buyer a new setup link: for a paid live-transfer order that still waits for setup. */
export async function resendSetupLink(deps: Deps, orderId: string, origin: string): Promise<void> {
  const order = await paidLiveTransferOrder(deps, orderId);
  if ((await getOrderDelivery(deps, order.id))?.setupStatus === "ready") {
    throw new ConflictError("This order's deliveries are already set up.");
  }
  if (!order.email) throw new ConflictError("This order has no e-mail address to send the link to.");
  await sendSetupLink(deps, order, origin);
}

/** The paid order a usable link is for, or undefined. */
async function linkedOrder(deps: Deps, token: string): Promise<OrderRecord | undefined> {
  const link = await peekLink(deps, "delivery_setup", token);
  const order = link?.orderId ? await findOrder(deps.db, link.orderId) : undefined;
  return order?.status === "paid" ? order : undefined;
}

const mayTakeOrders = (user: Pick<UserRecord, "isAdmin" | "accountType">) =>
  !user.isAdmin && user.accountType === "buyer";

function setupAccount(owner: UserRecord | undefined, caller: PublicUser | null): SetupAccount {
  if (!owner) return { kind: "new" };
  if (caller?.id === owner.id) return { kind: "signed-in", username: owner.username };
  if (!mayTakeOrders(owner)) return { kind: "sign-in-first" };
  return { kind: "password", username: owner.username };
}

/** What the setup page shows for the link, for this caller (signed in or not). */
export async function checkSetupLink(deps: Deps, token: string, caller: PublicUser | null): Promise<SetupLinkCheck> {
  const order = await linkedOrder(deps, token);
  if (!order) return { valid: false };
  const owner = order.userId ? await findUserById(deps, order.userId) : undefined;
  return {
    valid: true,
    orderId: order.id,
    transfers: order.quantity,
    email: order.email ?? "",
    account: setupAccount(owner, caller),
    settings: inputFromSettings((await getOrderDelivery(deps, order.id)) ?? deliverySettingsFromDetails(order.details)),
  };
}

type SetupRequest = Omit<DeliverySetupRequest, "settings"> & { settings: DeliverySettingsValues };
interface SetupCaller {
  user: PublicUser | null;
  /** The client's address, for the sign-in throttle. */
  address: string;
}

/** Whose order it becomes: an existing account (proved by password or session), or a new one. */
type Taker = { userId: string; signIn: boolean } | { create: NonNullable<SetupRequest["account"]> & { email: string } };

/** Decides who takes the order, before the link is touched: every refusal leaves it usable. */
async function orderTaker(deps: Deps, order: OrderRecord, request: SetupRequest, caller: SetupCaller): Promise<Taker> {
  const owner = order.userId ? await findUserById(deps, order.userId) : undefined;
  const account = setupAccount(owner, caller.user);
  if (owner && account.kind === "signed-in") return { userId: owner.id, signIn: false };
  if (owner && account.kind === "sign-in-first") throw new ForbiddenError(SETUP_SIGN_IN_FIRST);
  if (request.signIn) {
    const user = await checkCredentials(
      deps,
      { address: caller.address, username: request.signIn.username },
      request.signIn.password,
    );
    if (owner && user.id !== owner.id) {
      throw new ForbiddenError(`This order belongs to ${owner.username}: sign in with that account's password.`);
    }
    if (!mayTakeOrders(user)) throw new ForbiddenError(SETUP_NOT_A_BUYER_ACCOUNT);
    return { userId: user.id, signIn: true };
  }
  if (owner) throw new InvalidError(SETUP_PASSWORD_NEEDED, { errors: { "signIn.password": SETUP_PASSWORD_NEEDED } });
  if (request.account && order.email) return { create: { ...request.account, email: order.email } };
  throw new InvalidError(SETUP_ACCOUNT_NEEDED, { errors: { "account.username": SETUP_ACCOUNT_NEEDED } });
}

/**
 * Saves the settings through the e-mailed link (once, and only when they are accepted) for the account
 * that takes the order. Answers that account and whether the caller must be signed in to it now.
 */
export async function completeSetup(
  deps: Deps,
  request: SetupRequest,
  caller: SetupCaller,
): Promise<{ user: PublicUser; signIn: boolean }> {
  const { db } = deps;
  const order = await linkedOrder(deps, request.token);
  if (!order) throw new InvalidError(SETUP_LINK_INVALID);
  const taker = await orderTaker(deps, order, request, caller);
  const settings = settingsFromInput(request.settings);
  const link = { purpose: "delivery_setup" as const, token: request.token, invalid: SETUP_LINK_INVALID };
  return redeemLink(deps, link, async () => {
    const saveSettings = () => deliverySettingsStatements(deps, order.id, order.quantity, settings);
    // Only an order without an account is given one, whatever happened since the check.
    const attach = (userId: string) =>
      db
        .update(orders)
        .set({ userId, updatedAt: new Date() })
        .where(and(eq(orders.id, order.id), isNull(orders.userId)));
    let userId: string;
    if ("create" in taker) {
      userId = await createUser(
        deps,
        { ...taker.create, firstName: detail(order, "firstName"), lastName: detail(order, "lastName") },
        { fieldName: (field) => `account.${field}`, alongside: (id) => [attach(id), ...saveSettings()] },
      );
    } else {
      userId = taker.userId;
      await db.batch([attach(userId), ...saveSettings()]);
    }
    const user = await findUserById(deps, userId);
    if (!user) throw new NotFoundError("Account not found");
    return { user: toPublicUser(user), signIn: "create" in taker || taker.signIn };
  });
}

const detail = (order: OrderRecord, key: string) => {
  const value = (order.details as Record<string, unknown>)[key];
  return typeof value === "string" ? value : "";
};

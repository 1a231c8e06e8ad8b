/**
 * Delivery settings of live-transfer orders (issue 15 item 3). At payment an order gets its settings from
 * what its form said; one that lacks any is 'awaiting setup' and its buyer is e-mailed a single-use link
 * to a setup page that saves them and signs the buyer in (creating the account when the e-mail has none).
 * Admins fill them in from /admin-orders. Settings are written only through saveDeliverySettings.
 */
import { eq, sql } from "drizzle-orm";
import {
  type DeliverySettingsValues,
  type DeliverySetupRequest,
  deliverySettingsFromDetails,
  hoursLabel,
  inputFromSettings,
  isLiveTransferOrder,
  type OrderDeliveryView,
  SETUP_LINK_INVALID,
  SETUP_LINK_TTL_DAYS,
  type SetupLinkCheck,
  settingsFromInput,
} from "../../src/domain/delivery-setup";
import { type PublicUser, USERNAME_TOO_SHORT } from "../../src/domain/user";
import { type Database, database } from "../db/client";
import { orderDelivery, orders, singleUseTokens, users } from "../db/schema";
import type { Env } from "../env";
import { ConflictError, InvalidError, NotFoundError } from "../errors";
import { findAccountConflict } from "./accounts";
import { sendMail } from "./mail";
import { getOrderDelivery, saveDeliverySettings } from "./order-delivery";
import { hashPassword } from "./passwords";
import { consumeToken, mintToken, peekToken } from "./single-use-tokens";
import { findUserByEmail, findUserById, toPublicUser } from "./users";

const SETUP_LINK_TTL_MS = SETUP_LINK_TTL_DAYS * 24 * 60 * 60 * 1000;

type OrderRecord = typeof orders.$inferSelect;
type PaidOrder = Pick<OrderRecord, "id" | "kind" | "userId" | "email" | "quantity" | "details">;

/** E-mails the buyer a single-use link to /delivery-setup for this order. */
async function sendSetupLink(env: Env, order: PaidOrder, origin: string): Promise<void> {
  if (!order.email) return;
  const link = await mintToken("delivery_setup", SETUP_LINK_TTL_MS, {
    orderId: order.id,
    userId: order.userId,
    email: order.email,
  });
  await database(env.DB).insert(singleUseTokens).values(link.row);
  await sendMail(env, {
    to: order.email,
    subject: "Set up your live-transfer deliveries",
    text: [
      "Thank you for your order!",
      "",
      `Order ${order.id}: ${order.quantity} live transfers.`,
      "Before partners can send you calls we need your transfer number, states, hours and daily limit.",
      "Open this link to set them up (it also opens your account, where the order shows in My Orders):",
      `${origin}/delivery-setup?token=${link.token}`,
      "",
      `The link works once and expires in ${SETUP_LINK_TTL_DAYS} days.`,
    ].join("\n"),
  });
}

/**
 * Called once when an order becomes paid: a live-transfer order gets its delivery settings from its form;
 * when they are incomplete the buyer is e-mailed the setup link. Other orders are left alone.
 */
export async function prepareDelivery(env: Env, order: PaidOrder, origin: string): Promise<void> {
  if (!isLiveTransferOrder(order.kind, order.details)) return;
  const db = database(env.DB);
  await saveDeliverySettings(db, order.id, order.quantity, deliverySettingsFromDetails(order.details));
  const saved = await getOrderDelivery(db, order.id);
  if (saved?.setupStatus !== "awaiting_setup") return;
  try {
    await sendSetupLink(env, order, origin);
  } catch (error) {
    // The payment stands; an admin can still fill the settings in from /admin-orders.
    console.error(`Delivery setup e-mail for order ${order.id} failed`, error);
  }
}

async function findOrder(db: Database, orderId: string): Promise<OrderRecord | undefined> {
  return db.select().from(orders).where(eq(orders.id, orderId)).get();
}

/** The account a setup link signs into: the order's own, else the one with the order's e-mail. */
async function orderAccount(env: Env, order: OrderRecord) {
  const user =
    (order.userId ? await findUserById(env.DB, order.userId) : undefined) ??
    (order.email ? await findUserByEmail(env.DB, order.email) : undefined);
  if (user?.accountType === "partner") {
    throw new ConflictError("This order's e-mail belongs to a partner account. Please contact support.");
  }
  return user;
}

export async function checkSetupLink(env: Env, token: string): Promise<SetupLinkCheck> {
  const db = database(env.DB);
  const link = await peekToken(db, "delivery_setup", token);
  const order = link?.orderId ? await findOrder(db, link.orderId) : undefined;
  if (order?.status !== "paid") return { valid: false };
  const account = await orderAccount(env, order);
  return {
    valid: true,
    orderId: order.id,
    transfers: order.quantity,
    email: order.email ?? account?.email ?? "",
    username: account?.username ?? null,
    settings: inputFromSettings((await getOrderDelivery(db, order.id)) ?? deliverySettingsFromDetails(order.details)),
  };
}

/**
 * Saves the settings through the e-mailed link (once) and answers the buyer to sign in: the order's
 * account, or a new one made from `account` when the order's e-mail has none (the order is then theirs).
 */
export async function completeSetup(
  env: Env,
  request: Omit<DeliverySetupRequest, "settings"> & { settings: DeliverySettingsValues },
): Promise<PublicUser> {
  const db = database(env.DB);
  const link = await peekToken(db, "delivery_setup", request.token);
  const order = link?.orderId ? await findOrder(db, link.orderId) : undefined;
  if (order?.status !== "paid") throw new InvalidError(SETUP_LINK_INVALID);
  const existing = await orderAccount(env, order);
  const email = order.email ?? existing?.email;
  if (!existing && (!request.account || !email)) {
    throw new InvalidError("Choose a username and password to create your account", {
      errors: { "account.username": USERNAME_TOO_SHORT },
    });
  }
  if (!existing && request.account && email) {
    const conflict = await findAccountConflict(env.DB, request.account.username, email);
    if (conflict)
      throw new ConflictError(conflict.message, { errors: { [`account.${conflict.field}`]: conflict.message } });
  }
  if (!(await consumeToken(db, "delivery_setup", request.token))) throw new InvalidError(SETUP_LINK_INVALID);

  let userId = existing?.id;
  if (!userId && request.account && email) {
    userId = crypto.randomUUID();
    const details = order.details as Record<string, unknown>;
    await db.insert(users).values({
      id: userId,
      username: request.account.username,
      email,
      passwordHash: await hashPassword(request.account.password),
      firstName: typeof details.firstName === "string" ? details.firstName : "",
      lastName: typeof details.lastName === "string" ? details.lastName : "",
    });
  }
  if (!userId) throw new InvalidError(SETUP_LINK_INVALID);
  await db
    .update(orders)
    .set({ userId, updatedAt: new Date() })
    .where(sql`${orders.id} = ${order.id} AND ${orders.userId} IS NULL`);
  await saveDeliverySettings(db, order.id, order.quantity, settingsFromInput(request.settings));
  const user = await findUserById(env.DB, userId);
  if (!user) throw new NotFoundError("Account not found");
  return toPublicUser(user);
}

/** An admin fills in (or corrects) a paid live-transfer order's delivery settings. */
export async function adminSaveDelivery(env: Env, orderId: string, input: DeliverySettingsValues): Promise<void> {
  const db = database(env.DB);
  const order = await findOrder(db, orderId);
  if (!order || !isLiveTransferOrder(order.kind, order.details)) throw new NotFoundError("Order not found");
  if (order.status !== "paid") throw new ConflictError(`A ${order.status} order takes no deliveries.`);
  await saveDeliverySettings(db, order.id, order.quantity, settingsFromInput(input));
}

/** Every order's delivery (settings and counts) for /admin-orders, by order id. */
export async function deliveryViews(env: Env): Promise<Map<string, OrderDeliveryView>> {
  const rows = await database(env.DB).select().from(orderDelivery);
  return new Map(
    rows.map((row) => [
      row.orderId,
      {
        setupStatus: row.setupStatus,
        paused: row.paused,
        pausedReason: row.pausedReason,
        transfersTotal: row.transfersTotal,
        delivered: row.transfersBillable,
        notCharged: row.transfersNotCharged,
        remaining: Math.max(0, row.transfersTotal - row.transfersBillable),
        settings: inputFromSettings(row),
        hours:
          row.hoursStartMinute === null || row.hoursEndMinute === null || row.timeZone === null
            ? null
            : hoursLabel(row.hoursStartMinute, row.hoursEndMinute, row.timeZone),
      },
    ]),
  );
}

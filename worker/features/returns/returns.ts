/**
 * Returns (product rules 24-25): a buyer returns a billable transfer within 72 hours, a purchased aged
 * lead within 7 days, or an unreached call-back within 24 hours of its window's end (decision 0062), up to
 * 20 % of their deliveries in the last 14 days; an admin approves or denies.
 * An approved transfer gives its order one transfer back (eligible for routing again) and leaves the
 * partner's payout; an approved aged lead leaves My Leads and its price is credited to the balance.
 */
import { and, asc, desc, eq, isNull, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  type AdminReturn,
  type BuyerReturn,
  type EligibleReturns,
  itemLabel,
  RETURN_CAP_PERCENT,
  RETURN_CAP_WINDOW_MS,
  RETURN_MESSAGES,
  type ReturnKind,
  type ReturnStatus,
  type ReturnsOverview,
  returnBy,
  returnWindowMs,
  withinReturnWindow,
} from "../../../src/features/returns/returns";
import type { CreateReturnInput, ReturnDecisionInput } from "../../../src/features/returns/schemas/returns";
import type { Database } from "../../db/client";
import {
  agedLeads,
  callbackOpportunities as callbacks,
  orderDelivery,
  orders,
  partners,
  returns,
  transfers,
  users,
} from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, NotFoundError } from "../../errors";
import { emails } from "../../services/email-templates";
import { sendMail } from "../../services/mail";
import { creditReturnStatement } from "../orders/index";
import { returnDecidedFact, webhookRecording } from "../webhook-outbox/index";
import { callbackApprovalStatements, refillAfterReturn, returnableCallback, stillUnreached } from "./callback-returns";
import { assertOrderOpen, capState, deliveriesSince, orderOpen, returnsSince } from "./return-rules";

// ——— Reading returns ———

const partnerUsers = alias(users, "partner_users");

function returnSelect(db: Database) {
  return db
    .select({
      id: returns.id,
      kind: returns.kind,
      transferId: returns.transferId,
      agedLeadId: returns.agedLeadId,
      callbackId: returns.callbackId,
      orderId: returns.orderId,
      buyerUserId: returns.buyerUserId,
      reason: returns.reason,
      reasonText: returns.reasonText,
      status: returns.status,
      adminNote: returns.adminNote,
      createdAt: returns.createdAt,
      decidedAt: returns.decidedAt,
      transferName: sql<string | null>`${transfers.firstName} || ' ' || ${transfers.lastName}`,
      transferState: transfers.state,
      leadName: agedLeads.name,
      leadState: agedLeads.state,
      callbackName: callbacks.name,
      callbackState: callbacks.state,
      buyerUsername: users.username,
      buyerEmail: users.email,
      partnerBusinessName: partners.businessName,
      partnerEmail: partnerUsers.email,
    })
    .from(returns)
    .innerJoin(users, eq(users.id, returns.buyerUserId))
    .leftJoin(transfers, eq(transfers.id, returns.transferId))
    .leftJoin(partners, eq(partners.id, transfers.partnerId))
    .leftJoin(partnerUsers, eq(partnerUsers.id, partners.userId))
    .leftJoin(agedLeads, eq(agedLeads.id, returns.agedLeadId))
    .leftJoin(callbacks, eq(callbacks.id, returns.callbackId));
}

type ReturnRow = Awaited<ReturnType<typeof returnSelect>>[number];

function toBuyerReturn(row: ReturnRow): BuyerReturn {
  const [itemId, name, state] =
    row.kind === "transfer"
      ? [row.transferId, row.transferName, row.transferState]
      : row.kind === "callback"
        ? [row.callbackId, row.callbackName, row.callbackState]
        : [row.agedLeadId, row.leadName, row.leadState];
  return {
    id: row.id,
    kind: row.kind,
    itemId: itemId ?? "",
    itemLabel: itemLabel(name ?? "", state ?? ""),
    reason: row.reason,
    reasonText: row.reasonText,
    status: row.status,
    adminNote: row.adminNote,
    createdAt: row.createdAt.getTime(),
    decidedAt: row.decidedAt?.getTime() ?? null,
  };
}

function toAdminReturn(row: ReturnRow): AdminReturn {
  return {
    ...toBuyerReturn(row),
    buyerUsername: row.buyerUsername,
    buyerEmail: row.buyerEmail,
    partnerBusinessName: row.partnerBusinessName,
  };
}

async function oneReturn(db: Database, where: SQL | undefined): Promise<ReturnRow> {
  const [row] = await returnSelect(db).where(where);
  if (!row) throw new NotFoundError("No such return.");
  return row;
}

/** The buyer's returns (newest first) and how many more the cap allows now. */
export async function buyerReturns(deps: Deps, userId: string): Promise<ReturnsOverview> {
  const { db } = deps;
  const [cap, rows] = await Promise.all([
    capState(deps, userId),
    returnSelect(db).where(eq(returns.buyerUserId, userId)).orderBy(desc(returns.createdAt)).limit(200),
  ]);
  return {
    remaining: cap.remaining,
    cap: cap.cap,
    deliveriesInWindow: cap.deliveries,
    returns: rows.map(toBuyerReturn),
  };
}

/** What the buyer can still return: billable transfers within 72 h and aged leads within 7 days, not returned. */
export async function eligibleReturns(deps: Deps, userId: string): Promise<EligibleReturns> {
  const { db, now } = deps;
  const since = (kind: ReturnKind) => new Date(now - returnWindowMs(kind));
  const [cap, transferRows, leadRows] = await Promise.all([
    capState(deps, userId),
    db
      .select({
        id: transfers.id,
        name: sql<string>`${transfers.firstName} || ' ' || ${transfers.lastName}`,
        state: transfers.state,
        deliveredAt: transfers.routedAt,
      })
      .from(transfers)
      .leftJoin(returns, eq(returns.transferId, transfers.id))
      .where(
        and(
          eq(transfers.buyerUserId, userId),
          eq(transfers.billable, true),
          sql`${transfers.routedAt} >= ${since("transfer").getTime()}`,
          isNull(returns.id),
          orderOpen(transfers.orderId),
        ),
      )
      .orderBy(desc(transfers.routedAt))
      .limit(200),
    db
      .select({ id: agedLeads.id, name: agedLeads.name, state: agedLeads.state, deliveredAt: agedLeads.soldAt })
      .from(agedLeads)
      .leftJoin(returns, eq(returns.agedLeadId, agedLeads.id))
      .where(
        and(
          eq(agedLeads.soldToUserId, userId),
          sql`${agedLeads.soldAt} >= ${since("aged_lead").getTime()}`,
          isNull(returns.id),
          isNull(agedLeads.refundedAt),
          orderOpen(agedLeads.soldOrderId),
        ),
      )
      .orderBy(desc(agedLeads.soldAt))
      .limit(200),
  ]);
  const candidate =
    (kind: ReturnKind) => (row: { id: string; name: string; state: string; deliveredAt: Date | null }) => {
      const deliveredAt = row.deliveredAt?.getTime() ?? 0;
      return { id: row.id, label: itemLabel(row.name, row.state), deliveredAt, returnBy: returnBy(kind, deliveredAt) };
    };
  return {
    remaining: cap.remaining,
    transfers: transferRows.map(candidate("transfer")),
    agedLeads: leadRows.map(candidate("aged_lead")),
  };
}

// ——— Asking for a return ———

/** The buyer's item, its order and when it was delivered; 404 for anything not the buyer's. */
async function returnableItem(deps: Deps, userId: string, input: CreateReturnInput) {
  const { db } = deps;
  // A call-back's period and outcome are checked here; its order is '' when bought without one.
  if (input.kind === "callback")
    return { ...(await returnableCallback(deps, userId, input.itemId)), deliveredAt: null };
  if (input.kind === "transfer") {
    const [transfer] = await db
      .select({ orderId: transfers.orderId, deliveredAt: transfers.routedAt, billable: transfers.billable })
      .from(transfers)
      .where(and(eq(transfers.id, input.itemId), eq(transfers.buyerUserId, userId)));
    if (!transfer) throw new NotFoundError("No such transfer.");
    if (!transfer.billable) throw new ConflictError(RETURN_MESSAGES.notBillable);
    return { orderId: transfer.orderId, deliveredAt: transfer.deliveredAt.getTime() };
  }
  const [lead] = await db
    .select({ orderId: agedLeads.soldOrderId, deliveredAt: agedLeads.soldAt })
    .from(agedLeads)
    .where(and(eq(agedLeads.id, input.itemId), eq(agedLeads.soldToUserId, userId)));
  if (!lead?.deliveredAt || !lead.orderId) throw new NotFoundError("No such lead.");
  return { orderId: lead.orderId, deliveredAt: lead.deliveredAt.getTime() };
}

const itemColumn = (kind: ReturnKind) =>
  kind === "transfer" ? returns.transferId : kind === "callback" ? returns.callbackId : returns.agedLeadId;

/**
 * Records a buyer's return. The window is checked here; the cap in the INSERT itself (deliveries and
 * returns counted by the statement that adds the return), so two requests at the limit cannot both pass,
 * and the unique index on the item keeps it to one return.
 */
export async function createReturn(deps: Deps, userId: string, input: CreateReturnInput): Promise<BuyerReturn> {
  const { db, now } = deps;
  const item = await returnableItem(deps, userId, input);
  await assertOrderOpen(deps, item.orderId);
  if (item.deliveredAt !== null && !withinReturnWindow(input.kind, item.deliveredAt, now)) {
    throw new ConflictError(
      input.kind === "transfer" ? RETURN_MESSAGES.transferWindow : RETURN_MESSAGES.agedLeadWindow,
    );
  }
  const id = crypto.randomUUID();
  const since = now - RETURN_CAP_WINDOW_MS;
  // Raw SQL: an INSERT … SELECT guarded by counts of three tables (the cap), which drizzle's insert-select cannot say.
  const inserted = await db.all<{ id: string }>(sql`
    INSERT INTO returns (id, kind, buyer_user_id, transfer_id, aged_lead_id, callback_id, order_id, reason, reason_text, status, created_at)
    SELECT ${id}, ${input.kind}, ${userId}, ${input.kind === "transfer" ? input.itemId : null},
      ${input.kind === "aged_lead" ? input.itemId : null}, ${input.kind === "callback" ? input.itemId : null},
      ${item.orderId}, ${input.reason},
      ${input.reasonText ?? null}, 'pending', ${now}
    WHERE (${returnsSince(userId, since)} + 1) * 100 <= ${deliveriesSince(userId, since)} * ${RETURN_CAP_PERCENT}
      AND ${orderOpen(item.orderId)} AND ${stillUnreached(userId, input)}
    ON CONFLICT DO NOTHING
    RETURNING id`);
  if (inserted.length === 0) {
    // Refunded or cancelled meanwhile (or before), or a call-back marked reached meanwhile: said so.
    await assertOrderOpen(deps, item.orderId);
    if (input.kind === "callback") await returnableCallback(deps, userId, input.itemId);
    const [existing] = await db
      .select({ id: returns.id })
      .from(returns)
      .where(eq(itemColumn(input.kind), input.itemId));
    throw new ConflictError(existing ? RETURN_MESSAGES.alreadyReturned : RETURN_MESSAGES.capReached, {
      remaining: existing ? (await capState(deps, userId)).remaining : 0,
    });
  }
  return toBuyerReturn(await oneReturn(db, eq(returns.id, id)));
}

// ——— Admin: the queue and decisions ———

export async function listAdminReturns(deps: Deps, status?: ReturnStatus): Promise<AdminReturn[]> {
  const rows = await returnSelect(deps.db)
    .where(status ? eq(returns.status, status) : undefined)
    // The pending queue oldest first (first come, first decided); decided ones newest first.
    .orderBy(status === "pending" ? asc(returns.createdAt) : desc(returns.createdAt))
    .limit(200);
  return rows.map(toAdminReturn);
}

/** The price the buyer paid for an aged lead, from its order's details (cents). */
async function leadPriceCents(db: Database, orderId: string, leadId: string): Promise<number> {
  const [order] = await db.select({ details: orders.details }).from(orders).where(eq(orders.id, orderId));
  const prices = (order?.details.prices as { id: string; priceCents: number }[] | undefined) ?? [];
  return prices.find((price) => price.id === leadId)?.priceCents ?? 0;
}

/**
 * Approves or denies a pending return, with its effects in the same transaction: each effect runs only
 * if this decision was the one recorded (a second, concurrent decision changes nothing and is a 409).
 */
export async function decideReturn(
  deps: Deps,
  adminId: string,
  returnId: string,
  input: ReturnDecisionInput,
  options: { siteOrigin: string },
): Promise<AdminReturn> {
  const { db, now } = deps;
  const current = await oneReturn(db, eq(returns.id, returnId));
  if (current.status !== "pending") throw new ConflictError(RETURN_MESSAGES.alreadyDecided);
  const decidedAt = new Date(now);
  // An approval needs the order still paid: a refunded or cancelled one gave the money back already.
  if (input.decision === "approved") await assertOrderOpen(deps, current.orderId);
  const decide = db
    .update(returns)
    .set({ status: input.decision, adminNote: input.note ?? null, decidedBy: adminId, decidedAt })
    .where(
      and(
        eq(returns.id, returnId),
        eq(returns.status, "pending"),
        input.decision === "approved" ? orderOpen(current.orderId) : undefined,
      ),
    )
    .returning({ id: returns.id });
  const decidedHere = sql`EXISTS (SELECT 1 FROM ${returns} WHERE ${returns.id} = ${returnId}
    AND ${returns.status} = 'approved' AND ${returns.decidedBy} = ${adminId} AND ${returns.decidedAt} = ${now})`;

  // The buyer's `return.decided` webhook joins whichever batch records the decision.
  const hooks = await webhookRecording(
    deps,
    returnDecidedFact({ returnId, buyerUserId: current.buyerUserId, adminId, status: input.decision }, now),
  );
  let results: readonly unknown[];
  let refill = false;
  if (input.decision === "approved" && current.kind === "transfer" && current.transferId) {
    results = await db.batch([
      decide,
      db
        .update(transfers)
        .set({ returnedAt: decidedAt })
        .where(and(eq(transfers.id, current.transferId), isNull(transfers.returnedAt), decidedHere)),
      // One transfer back: the order's billable count drops (the routing index follows by trigger) …
      db
        .update(orderDelivery)
        .set({ transfersBillable: sql`max(${orderDelivery.transfersBillable} - 1, 0)`, updatedAt: decidedAt })
        .where(and(eq(orderDelivery.orderId, current.orderId), decidedHere)),
      // … and an order completed by its deliveries is open again.
      db
        .update(orders)
        .set({ status: "paid", updatedAt: decidedAt })
        .where(and(eq(orders.id, current.orderId), eq(orders.status, "completed"), decidedHere)),
      ...hooks.statements,
    ]);
  } else if (input.decision === "approved" && current.kind === "aged_lead" && current.agedLeadId) {
    const priceCents = await leadPriceCents(db, current.orderId, current.agedLeadId);
    results = await db.batch([
      decide,
      db
        .update(agedLeads)
        .set({ returnedAt: decidedAt })
        .where(and(eq(agedLeads.id, current.agedLeadId), isNull(agedLeads.returnedAt), decidedHere)),
      creditReturnStatement(deps, {
        userId: current.buyerUserId,
        amountCents: priceCents,
        returnId,
        createdBy: adminId,
      }),
      ...hooks.statements,
    ]);
  } else if (input.decision === "approved" && current.kind === "callback" && current.callbackId) {
    const approval = { returnId, callbackId: current.callbackId, buyerUserId: current.buyerUserId, adminId };
    const effects = await callbackApprovalStatements(deps, approval, decidedHere);
    results = await db.batch([decide, ...effects.statements, ...hooks.statements]);
    refill = effects.refill;
  } else {
    results = await db.batch([decide, ...hooks.statements]);
  }
  const [decided] = results as [{ id: string }[]];
  await hooks.enqueue(deps, results);
  // The order got a place back: the next waiting call-back fills it.
  if (refill && decided.length > 0) await refillAfterReturn(deps, returnId);
  if (decided.length === 0) {
    if (input.decision === "approved") await assertOrderOpen(deps, current.orderId);
    throw new ConflictError(RETURN_MESSAGES.alreadyDecided);
  }
  const after = await oneReturn(db, eq(returns.id, returnId));
  await tellOfDecision(deps, after, options.siteOrigin);
  return toAdminReturn(after);
}

async function tellOfDecision(deps: Deps, row: ReturnRow, siteOrigin: string) {
  const { itemLabel } = toBuyerReturn(row);
  const approved = row.status === "approved";
  const decision = {
    kind: row.kind,
    approved,
    status: row.status,
    itemLabel,
    reason: row.reason,
    adminNote: row.adminNote,
    withoutOrder: row.kind === "callback" && row.orderId === "",
  };
  const messages = [sendMail(deps, row.buyerEmail, emails.returnDecided(siteOrigin, decision))];
  if (approved && row.kind === "transfer" && row.partnerEmail) {
    const returned = { itemLabel, reason: row.reason };
    messages.push(sendMail(deps, row.partnerEmail, emails.transferReturnedToPartner(siteOrigin, returned)));
  }
  try {
    await Promise.all(messages);
  } catch (error) {
    // The decision stands; the outbox keeps what could not be sent.
    console.error(`Return ${row.id}: decision e-mail failed`, error);
  }
}

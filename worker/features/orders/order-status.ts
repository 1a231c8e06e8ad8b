/** What an order's return page reads: its status, for its owner or whoever holds its payment's client secret. */
import { eq, getTableColumns } from "drizzle-orm";
import { orderDelivery, orders } from "../../db/schema";
import type { Deps } from "../../deps";
import { sha256Hex } from "../../services/digest";
import { notChargedCountSql, notChargedNotice } from "./not-charged";

/**
 * The order's status for its return page: only its owner (signed in) or whoever holds its payment's
 * client secret may read it; anyone else is told it does not exist.
 */
export async function orderStatusFor(
  deps: Deps,
  orderId: string,
  reader: { userId: string | null; clientSecret: string | null },
) {
  const [order] = await deps.db
    .select({ ...getTableColumns(orders), notCharged: notChargedCountSql })
    .from(orders)
    .where(eq(orders.id, orderId));
  const owner = order?.userId != null && order.userId === reader.userId;
  const holdsSecret =
    order?.clientSecretHash != null &&
    reader.clientSecret !== null &&
    (await sha256Hex(reader.clientSecret)) === order.clientSecretHash;
  if (!order || !(owner || holdsSecret)) return null;
  const [delivery] = await deps.db
    .select({ setupStatus: orderDelivery.setupStatus })
    .from(orderDelivery)
    .where(eq(orderDelivery.orderId, order.id));
  return {
    id: order.id,
    kind: order.kind,
    status: order.status,
    quantity: order.quantity,
    totalCents: order.totalCents,
    /** After payment only: leads left out for the buyer's private Do Not Call list (decision 0049). */
    notCharged: order.notCharged ?? 0,
    notice: notChargedNotice(order.notCharged),
    /** Where the delivery-setup link went, while the paid order waits for its setup (the return page says so). */
    deliverySetupEmailedTo: delivery?.setupStatus === "awaiting_setup" ? order.email : null,
  };
}

/** /admin-orders' API (spec §7 `GET /api/transfer-orders`; PRODUCT.md D2): every live-transfer order, admins only. */
import { Hono } from "hono";
import { deliverySettingsInputSchema } from "../../src/domain/delivery-setup";
import {
  ORDER_TRANSITIONS,
  orderStatusChangeSchema,
  parseStates,
  type TransferOrderView,
} from "../../src/domain/schemas/dashboard";
import type { AppBindings } from "../env";
import { errorJson } from "../http";
import { requireAdmin } from "../middleware/auth";
import { adminSaveDelivery, deliveryViews } from "../services/delivery-setup";
import { validateJson } from "../validation";

/** Live transfers, whichever screen sold them: dashboard orders, pricing packages, and both surveys' transfer orders. */
const LIVE_TRANSFER_ORDERS = `(o.kind IN ('transfer', 'package')
  OR (o.kind = 'survey' AND json_extract(o.details, '$.leadType') = 'Live Transfers')
  OR (o.kind = 'ringcloud' AND json_extract(o.details, '$.packageType') = 'live_transfers'))`;

interface OrderRow {
  id: string;
  kind: string;
  quantity: number;
  total_cents: number;
  status: TransferOrderView["status"];
  disputed_at: number | null;
  dispute_reason: string | null;
  created_at: number;
  email: string | null;
  details: string;
  first_name: string | null;
  last_name: string | null;
  user_phone: string | null;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

function toView(row: OrderRow): Omit<TransferOrderView, "delivery"> {
  const details = JSON.parse(row.details) as Record<string, unknown>;
  const states = Array.isArray(details.selectedStates)
    ? details.selectedStates.map(String)
    : parseStates(text(details.workingStates) || text(details.state));
  const perDay = details.callsPerDay ?? details.transfersPerDay;
  return {
    id: row.id,
    kind: row.kind,
    firstName: text(details.firstName) || row.first_name || "",
    lastName: text(details.lastName) || row.last_name || "",
    transferNumber: text(details.transferPhone),
    phone: text(details.phone) || row.user_phone || "",
    email: row.email ?? "",
    totalTransfers: row.quantity,
    transfersPerDay: typeof perDay === "number" ? perDay : null,
    selectedStates: states,
    totalPrice: row.total_cents / 100,
    status: row.status,
    disputedAt: row.disputed_at === null ? null : new Date(row.disputed_at).toISOString(),
    disputeReason: row.dispute_reason,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export const transferOrders = new Hono<AppBindings>()
  .use("/transfer-orders", requireAdmin)
  .use("/transfer-orders/*", requireAdmin)
  .get("/transfer-orders", async (c) => {
    const { results } = await c.env.DB.prepare(
      `SELECT o.id, o.kind, o.quantity, o.total_cents, o.status, o.disputed_at, o.dispute_reason, o.created_at, o.email, o.details,
              u.first_name, u.last_name, u.phone AS user_phone
       FROM orders o LEFT JOIN users u ON u.id = o.user_id
       WHERE ${LIVE_TRANSFER_ORDERS} ORDER BY o.created_at DESC`,
    ).all<OrderRow>();
    const deliveries = await deliveryViews(c.env);
    return c.json(results.map((row) => ({ ...toView(row), delivery: deliveries.get(row.id) ?? null })));
  })
  .patch("/transfer-orders/:id/status", validateJson(orderStatusChangeSchema), async (c) => {
    const { status } = c.req.valid("json");
    const from: readonly string[] = ORDER_TRANSITIONS[status];
    const updated = await c.env.DB.prepare(
      `UPDATE orders AS o SET status = ?1, updated_at = ?2
       WHERE o.id = ?3 AND o.status IN (SELECT value FROM json_each(?4)) AND ${LIVE_TRANSFER_ORDERS}
       RETURNING id`,
    )
      .bind(status, Date.now(), c.req.param("id"), JSON.stringify(from))
      .first();
    if (updated) return c.json({ message: "Order status updated", status });
    const order = await c.env.DB.prepare(`SELECT o.status FROM orders o WHERE o.id = ? AND ${LIVE_TRANSFER_ORDERS}`)
      .bind(c.req.param("id"))
      .first<{ status: string }>();
    if (!order) return errorJson(c, 404, "Order not found");
    return errorJson(c, 409, `A ${order.status} order cannot become ${status}.`);
  })
  .put("/transfer-orders/:id/delivery", validateJson(deliverySettingsInputSchema), async (c) => {
    await adminSaveDelivery(c.env, c.req.param("id"), c.req.valid("json"));
    return c.json({ message: "Delivery settings saved" });
  });

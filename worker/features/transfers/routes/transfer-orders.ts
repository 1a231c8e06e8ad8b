/** /admin-orders' API (`GET /api/transfer-orders`; product rules 8, 45): every live-transfer order, admins only. */
import { Hono } from "hono";
import { orderStatusChangeSchema } from "../../../../src/domain/schemas/dashboard";
import { deliverySettingsInputSchema } from "../../../../src/features/transfers/schemas/delivery-setup";
import type { SignedInBindings } from "../../../env";
import { siteOrigin } from "../../../services/mail";
import { validateJson } from "../../../validation";
import { adminSaveDelivery } from "../delivery-setup";
import { resendSetupLink } from "../setup-links";
import { changeTransferOrderStatus, listTransferOrders } from "../transfer-orders";

/** Mounted in the admin sub-app (worker/api.ts). */
export const transferOrders = new Hono<SignedInBindings>()
  .get("/transfer-orders", async (c) => c.json(await listTransferOrders(c.var.deps)))
  .patch("/transfer-orders/:id/status", validateJson(orderStatusChangeSchema), async (c) => {
    const { status } = c.req.valid("json");
    await changeTransferOrderStatus(c.var.deps, c.req.param("id"), status);
    return c.json({ message: "Order status updated", status });
  })
  .put("/transfer-orders/:id/delivery", validateJson(deliverySettingsInputSchema), async (c) => {
    await adminSaveDelivery(c.var.deps, c.req.param("id"), c.req.valid("json"));
    return c.json({ message: "Delivery settings saved" });
  })
  .post("/transfer-orders/:id/setup-link", async (c) => {
    await resendSetupLink(c.var.deps, c.req.param("id"), siteOrigin(c.var.deps, c.req.url));
    return c.json({ message: "Setup link sent" });
  });

/**
 * Live transfers as an order's product (docs/decisions/0077): once paid, after its confirmation, a
 * live-transfer order gets its delivery settings, or e-mails the setup link (an admin can still fill them in
 * from /admin-orders). Registered with orders by worker/order-products.ts.
 */

import type { OrderProduct } from "../orders/index";
import { prepareDelivery } from "./delivery-setup";

export const transferPayments: OrderProduct = {
  name: "transfers",
  afterPaid: (deps, order, origin) => prepareDelivery(deps, order, origin),
};

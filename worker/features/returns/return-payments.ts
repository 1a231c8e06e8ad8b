/**
 * Returns beside an order's payment (docs/decisions/0077): a fully refunded order's pending returns are
 * denied, so no balance credit comes on top of the card refund. Registered with orders by
 * worker/order-products.ts.
 */
import type { OrderProduct } from "../orders/index";
import { denyReturnsOfRefundedOrderStatement } from "./return-rules";

export const returnPayments: OrderProduct = {
  name: "returns",
  refundStatements: (deps, order) => [denyReturnsOfRefundedOrderStatement(deps, order.id)],
};

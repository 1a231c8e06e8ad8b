/**
 * Call-backs and appointments as an order's product (docs/decisions/0061, 0077): a marketplace order sells
 * its reserved call-back in the payment's batch and e-mails its delivery; a call-back order (survey or
 * ringcloud) takes the waiting call-backs that fit it once paid; a full refund marks the delivered ones
 * refunded. Registered with orders by worker/order-products.ts.
 */
import { callbackOrderTerms } from "../../../src/features/callbacks/callbacks";
import type { OrderProduct } from "../orders/index";
import { callbackSaleStatements, refundCallbacksStatement } from "./callback-sale";
import { fillCallbackOrders } from "./callbacks";

export const callbackPayments: OrderProduct = {
  name: "callbacks",
  saleAtPayment: async (deps, order) => (order.kind === "callbacks" ? callbackSaleStatements(deps, order) : null),
  afterPaid: async (deps, order) => {
    if (callbackOrderTerms(order.kind, order.details)) await fillCallbackOrders(deps);
  },
  refundStatements: (deps, order) => [refundCallbacksStatement(deps, order)],
};

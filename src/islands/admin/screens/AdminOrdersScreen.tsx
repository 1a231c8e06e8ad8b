/** The island of /admin-orders: orders' list with transfers' delivery counts and 'Set up delivery' dialog. */

import { lazy } from "react";
import AdminOrders from "../../../features/orders/views/AdminOrders";
import type { TransferOrder } from "../../../features/orders/views/transfer-order-row";
import { DeliveryCounts } from "../../../features/transfers/views/DeliveryCounts";

/** The settings form and its validation load only when an admin opens the dialog. */
const DeliverySetupDialog = lazy(() => import("../../../features/transfers/views/OrderDelivery"));

const deliveryCounts = (order: TransferOrder) => <DeliveryCounts order={order} />;

export default function AdminOrdersScreen() {
  return <AdminOrders deliveryCounts={deliveryCounts} DeliverySetupDialog={DeliverySetupDialog} />;
}

/** The island of /dashboard/my-orders (decision 0074): orders' list with transfers' agents in each live-transfer order. */

import { MyOrdersView } from "../../../features/orders/views/MyOrdersView";
import { OrderAgents } from "../../../features/transfers/views/agents/OrderAgents";
import { Screen, type ScreenProps } from "../../Screen";

const orderAgents = (orderId: string) => <OrderAgents orderId={orderId} />;

export default function MyOrdersScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <MyOrdersView orderAgents={orderAgents} />
    </Screen>
  );
}

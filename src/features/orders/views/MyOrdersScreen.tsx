/** The island of /dashboard/my-orders (decision 0074). */

import { MyOrdersView } from "../../../islands/dashboard/AccountViews";
import { Screen, type ScreenProps } from "../../../islands/Screen";

export default function MyOrdersScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <MyOrdersView />
    </Screen>
  );
}

/** The island of /dashboard/my-orders (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { MyOrdersView } from "./MyOrdersView";

export default function MyOrdersScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <MyOrdersView />
    </Screen>
  );
}

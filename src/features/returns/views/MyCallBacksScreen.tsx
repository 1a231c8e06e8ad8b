/** The island of /dashboard/my-call-backs (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { MyCallbacksView } from "./MyCallbacksView";

export default function MyCallBacksScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <MyCallbacksView />
    </Screen>
  );
}

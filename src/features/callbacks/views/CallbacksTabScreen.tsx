/** The island of /admin/callbacks (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { CallbacksTab } from "./CallbacksTab";

export default function CallbacksTabScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <CallbacksTab />
    </Screen>
  );
}

/** The island of /dashboard/do-not-call-list (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { DoNotCallListView } from "./DoNotCallListView";

export default function DoNotCallListScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <DoNotCallListView />
    </Screen>
  );
}

/** The island of /admin/dnc-requests (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import DoNotCallRequestsTab from "./DoNotCallRequestsTab";

export default function DoNotCallRequestsTabScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <DoNotCallRequestsTab />
    </Screen>
  );
}

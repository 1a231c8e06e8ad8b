/** The island of /dashboard/my-leads (decision 0074). */

import { MyLeadsView } from "../../../islands/dashboard/MyLeadsView";
import { Screen, type ScreenProps } from "../../../islands/Screen";

export default function MyLeadsScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <MyLeadsView />
    </Screen>
  );
}

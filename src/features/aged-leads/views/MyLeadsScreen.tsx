/** The island of /dashboard/my-leads (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { MyLeadsView } from "./MyLeadsView";

export default function MyLeadsScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <MyLeadsView />
    </Screen>
  );
}

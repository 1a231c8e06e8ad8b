/** The island of /dashboard/my-leads (decision 0074). */

import { Screen, type ScreenProps } from "../../Screen";
import { MyLeadsView } from "../AccountViews";

export default function MyLeadsScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <MyLeadsView />
    </Screen>
  );
}

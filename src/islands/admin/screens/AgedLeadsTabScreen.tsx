/** The island of /admin (decision 0074). */

import { Screen, type ScreenProps } from "../../Screen";
import { AgedLeadsTab } from "../uploads/AgedLeadsTab";

export default function AgedLeadsTabScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <AgedLeadsTab />
    </Screen>
  );
}

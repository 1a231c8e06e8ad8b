/** The island of /admin (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { AgedLeadsTab } from "./AgedLeadsTab";

export default function AgedLeadsTabScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <AgedLeadsTab />
    </Screen>
  );
}

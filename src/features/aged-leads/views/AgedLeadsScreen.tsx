/** The island of /dashboard (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { AgedLeadsView } from "./AgedLeadsView";

export default function AgedLeadsScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <AgedLeadsView />
    </Screen>
  );
}

/** The island of /admin/do-not-call (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import SuppressionTab from "./SuppressionTab";

export default function SuppressionTabScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <SuppressionTab />
    </Screen>
  );
}

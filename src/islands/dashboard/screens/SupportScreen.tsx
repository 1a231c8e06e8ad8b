/** The island of /dashboard/support (decision 0074). */

import { Screen, type ScreenProps } from "../../Screen";
import { SupportView } from "../SupportView";

export default function SupportScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <SupportView />
    </Screen>
  );
}

/** The island of /dashboard/call-transfers (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { CallTransfersView } from "./CallTransfersView";

export default function CallTransfersScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <CallTransfersView />
    </Screen>
  );
}

/** The island of /dashboard/call-backs (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { CallbackMarketView } from "./CallbackMarketView";

export default function CallBacksScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <CallbackMarketView kind="callback" />
    </Screen>
  );
}

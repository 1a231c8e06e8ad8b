/** The island of /dashboard/appointments (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { CallbackMarketView } from "./CallbackMarketView";

export default function AppointmentsScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <CallbackMarketView kind="appointment" />
    </Screen>
  );
}

/** The island of /dashboard/lead-tracker (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { LeadTrackerView } from "./LeadTrackerView";

export default function LeadTrackerScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <LeadTrackerView />
    </Screen>
  );
}

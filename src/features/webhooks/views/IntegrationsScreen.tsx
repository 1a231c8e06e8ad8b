/** The island of /dashboard/integrations (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { IntegrationsView } from "./IntegrationsView";

export default function IntegrationsScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <IntegrationsView />
    </Screen>
  );
}

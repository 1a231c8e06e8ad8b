/** The island of /dashboard/integrations (decision 0074). */

import { Screen, type ScreenProps } from "../../Screen";
import { IntegrationsView } from "../integrations/IntegrationsView";

export default function IntegrationsScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <IntegrationsView />
    </Screen>
  );
}

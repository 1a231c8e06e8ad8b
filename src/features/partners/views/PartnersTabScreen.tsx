/** The island of /admin/aff-network (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import { PartnersTab } from "./PartnersTab";

export default function PartnersTabScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <PartnersTab />
    </Screen>
  );
}

/** The island of /admin/users (decision 0074). */

import { Screen, type ScreenProps } from "../../Screen";
import { UsersTab } from "../UsersTab";

export default function UsersTabScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <UsersTab currentUserId={user.id} />
    </Screen>
  );
}

/** The island of /admin/users (decision 0074): accounts' users tab with partners' API key list (a shell over both). */

import { lazy } from "react";
import { UsersTab } from "../../../features/accounts/views/UsersTab";
import { Screen, type ScreenProps } from "../../Screen";

/** A partner's API keys, shown after its password is reset: loaded then (decision 0032). */
const PartnerKeyList = lazy(() =>
  import("../../../features/partners/views/PartnerAccounts").then((m) => ({ default: m.PartnerKeyList })),
);

export default function UsersTabScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <UsersTab currentUserId={user.id} partnerKeyList={PartnerKeyList} />
    </Screen>
  );
}

/** The island of /admin/fulfilment (decision 0074). */

import { Screen, type ScreenProps } from "../../../islands/Screen";
import FulfilmentTab from "./FulfilmentTab";

export default function FulfilmentTabScreen({ user }: ScreenProps) {
  return (
    <Screen user={user}>
      <FulfilmentTab />
    </Screen>
  );
}

/** The island of /dashboard/support (decision 0074): no server data, so no query client. */

import { PlainScreen, type ScreenProps } from "../../PlainScreen";
import { SupportView } from "../SupportView";

export default function SupportScreen({ user }: ScreenProps) {
  return (
    <PlainScreen user={user}>
      <SupportView />
    </PlainScreen>
  );
}

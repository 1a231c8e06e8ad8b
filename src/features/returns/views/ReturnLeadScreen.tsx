/** The island of /dashboard/return-lead (decision 0074). */
import { Screen, type ScreenProps } from "../../../islands/Screen";
import { ReturnLeadView } from "./ReturnLeadView";

interface ReturnLeadScreenProps extends ScreenProps {
  /** `?transfer=` (from the Lead Tracker's Return action) preselects that transfer. */
  transfer: string | null;
}

export default function ReturnLeadScreen({ user, transfer }: ReturnLeadScreenProps) {
  return (
    <Screen user={user}>
      <ReturnLeadView preselect={transfer} />
    </Screen>
  );
}

import { lazy, Suspense, useState } from "react";
import type { DialogProps } from "./dialog-view";

export type { DialogProps } from "./dialog-view";

const DialogView = lazy(() => import("./dialog-view"));

/**
 * A modal dialog. Its code (Radix) loads the first time it opens, not with the page (decision 0016);
 * once opened it stays mounted, so closing returns focus as Radix does.
 */
export function Dialog(props: DialogProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  return opened ? (
    <Suspense>
      <DialogView {...props} />
    </Suspense>
  ) : null;
}

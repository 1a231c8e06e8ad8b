import { lazy, type ReactNode, Suspense, useState } from "react";

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Wider dialogs for tables (the CSV review). */
  size?: "md" | "xl";
}

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

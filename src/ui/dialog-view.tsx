import * as RadixDialog from "@radix-ui/react-dialog";
import type { ReactNode } from "react";

/** A dialog's props (`Dialog`, ./dialog.tsx, takes the same and loads this file when one opens). */
export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Wider dialogs for tables (the CSV review). */
  size?: "md" | "xl";
}

/** The Radix dialog, loaded by `Dialog` the first time one opens (decision 0016). */
export default function DialogView({ open, onOpenChange, title, description, children, size = "md" }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-navy-900/60" />
        <RadixDialog.Content
          className={`fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl focus:outline-none ${size === "xl" ? "max-w-5xl" : "max-w-md"}`}
        >
          <RadixDialog.Title className="text-lg font-bold text-ink">{title}</RadixDialog.Title>
          {description ? (
            <RadixDialog.Description className="mt-1 text-sm text-ink-soft">{description}</RadixDialog.Description>
          ) : (
            <RadixDialog.Description className="sr-only">{title}</RadixDialog.Description>
          )}
          <div className="mt-5">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

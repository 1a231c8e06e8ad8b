/** The Radix toast viewport, loaded by the Toaster only once a toast is shown (decision 0016). */
import { useStore } from "@nanostores/react";
import * as RadixToast from "@radix-ui/react-toast";
import { noticeVariantClass } from "./styles";
import { $toasts, dismiss, TOAST_DURATION_MS } from "./toast-store";

export default function ToastView() {
  const toasts = useStore($toasts);
  return (
    <RadixToast.Provider duration={TOAST_DURATION_MS} swipeDirection="right">
      {toasts.map((t) => (
        <RadixToast.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => !open && dismiss(t.id)}
          type={t.variant === "destructive" ? "foreground" : "background"}
          className={`flex items-start gap-3 rounded-xl border p-4 shadow-lg ${noticeVariantClass[t.variant ?? "default"]}`}
          data-variant={t.variant ?? "default"}
        >
          <div className="flex-1">
            <RadixToast.Title className="font-semibold">{t.title}</RadixToast.Title>
            {t.description && (
              <RadixToast.Description className="mt-1 text-sm opacity-90">{t.description}</RadixToast.Description>
            )}
          </div>
          <RadixToast.Close aria-label="Dismiss" className="rounded p-1 text-current opacity-60 hover:opacity-100">
            ×
          </RadixToast.Close>
        </RadixToast.Root>
      ))}
      <RadixToast.Viewport className="fixed right-0 bottom-0 z-[100] flex w-full max-w-sm flex-col gap-2 p-4 outline-none" />
    </RadixToast.Provider>
  );
}

/** /admin-orders' delivery parts (issue 15): each order's delivered counts, and the 'Set up delivery' dialog. */

import { type DeliverySettingsValues, inputFromSettings } from "../../domain/delivery-setup";
import type { TransferOrderView } from "../../domain/schemas/dashboard";
import { NOT_CHARGED_LABEL } from "../../domain/transfers";
import { apiRequest, errorMessage } from "../../lib/api";
import { useMutation, useQueryClient } from "../../lib/query";
import { Dialog } from "../../ui/dialog";
import { toast } from "../../ui/toast";
import { DeliverySettingsForm } from "../delivery/DeliverySettingsForm";

/** Delivered (billable) / not charged / remaining, and whether the order still waits for its settings. */
export function DeliveryCounts({ order }: { order: TransferOrderView }) {
  const delivery = order.delivery;
  if (!delivery) return null;
  return (
    <div className="mt-1 space-y-0.5 text-xs" data-testid={`delivery-${order.id}`}>
      {delivery.setupStatus === "awaiting_setup" && <div className="font-semibold text-amber-800">Awaiting setup</div>}
      {delivery.paused && <div className="font-semibold text-red-800">Paused: {delivery.pausedReason}</div>}
      <div>
        <span className="font-semibold">{delivery.delivered}</span> delivered ·{" "}
        <span className="font-semibold">{delivery.remaining}</span> remaining
      </div>
      <div className="text-ink-soft" title={NOT_CHARGED_LABEL}>
        {delivery.notCharged} not charged ({NOT_CHARGED_LABEL})
      </div>
      {delivery.hours && <div className="text-ink-soft">{delivery.hours}</div>}
    </div>
  );
}

export function DeliverySetupDialog({ order, onClose }: { order: TransferOrderView | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (settings: DeliverySettingsValues) =>
      apiRequest("PUT", `/api/transfer-orders/${encodeURIComponent(order?.id ?? "")}/delivery`, settings),
    onSuccess: async () => {
      onClose();
      await queryClient.invalidateQueries({ queryKey: ["/api/transfer-orders"] });
      toast({ title: "Success", description: "Delivery settings saved", variant: "success" });
    },
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to save settings"), variant: "destructive" }),
  });
  const defaults =
    order?.delivery?.settings ??
    inputFromSettings({ transferPhone: order?.transferNumber || null, states: order?.selectedStates ?? [] });
  return (
    <Dialog
      open={order !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Set up delivery"
      description={order && `Order ${order.id.slice(0, 8)} · ${order.totalTransfers} transfers`}
    >
      {order && (
        <DeliverySettingsForm
          key={order.id}
          defaultValues={defaults}
          submitLabel="Save delivery settings"
          busy={save.isPending}
          onSubmit={(settings) => save.mutate(settings)}
        />
      )}
    </Dialog>
  );
}

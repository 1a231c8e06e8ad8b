/** /admin-orders' 'Set up delivery' dialog, loaded when an admin opens it (it carries the form). */

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, call, errorMessage } from "../../../lib/api";
import { Dialog } from "../../../ui/dialog";
import { toast } from "../../../ui/toast";
import type { TransferOrder } from "../../orders/views/index";
import { inputFromSettings } from "../delivery-setup";
import type { DeliverySettingsValues } from "../schemas/delivery-setup";
import { DeliverySettingsForm } from "./DeliverySettingsForm";

export default function DeliverySetupDialog({ order, onClose }: { order: TransferOrder | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (settings: DeliverySettingsValues) =>
      call(
        api["transfer-orders"][":id"].delivery.$put({
          param: { id: encodeURIComponent(order?.id ?? "") },
          json: settings,
        }),
      ),
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

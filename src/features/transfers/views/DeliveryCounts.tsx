/** /admin-orders' delivery counts of each live-transfer order. */
import type { TransferOrderView } from "../../../domain/schemas/dashboard";
import { NOT_CHARGED_LABEL } from "../transfers";

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
      {delivery.limits && <div className="text-ink-soft">Limits: {delivery.limits}</div>}
    </div>
  );
}

/**
 * Delivery settings of live-transfer orders. At payment an order gets its settings from
 * what its form said; one that lacks any, or whose settings cannot be saved, is 'awaiting setup' and its
 * buyer is e-mailed the setup link (worker/features/transfers/setup-links.ts). Admins fill them in from
 * /admin-orders. Settings are written only through order-delivery.ts.
 */
import {
  deliverySettingsFromDetails,
  hoursLabel,
  inputFromSettings,
  isLiveTransferOrder,
  limitsText,
  type OrderDeliveryView,
  settingsFromInput,
} from "../../../src/features/transfers/delivery-setup";
import type { DeliverySettingsValues } from "../../../src/features/transfers/schemas/delivery-setup";
import { isDeliveryComplete } from "../../../src/features/transfers/transfers";
import { orderDelivery, type orders } from "../../db/schema";
import type { Deps } from "../../deps";
import { markAwaitingSetup, paidLiveTransferOrder, saveDeliverySettings } from "./order-delivery";
import { sendSetupLink } from "./setup-links";

type OrderRecord = typeof orders.$inferSelect;
type PaidOrder = Pick<OrderRecord, "id" | "kind" | "userId" | "email" | "quantity" | "details">;

/**
 * Called once when an order becomes paid: a live-transfer order gets its delivery settings from its form.
 * When they are incomplete, or cannot be saved, the order waits for setup (the buyer and /admin-orders
 * see it) and the buyer is e-mailed the setup link. Never silent: what fails is logged with the order.
 */
export async function prepareDelivery(deps: Deps, order: PaidOrder, origin: string): Promise<void> {
  if (!isLiveTransferOrder(order.kind, order.details)) return;
  const settings = deliverySettingsFromDetails(order.details);
  let awaiting = !isDeliveryComplete(settings);
  try {
    await saveDeliverySettings(deps, order.id, order.quantity, settings);
  } catch (error) {
    console.error(`Order ${order.id}: its delivery settings could not be saved, so it waits for setup`, error);
    await markAwaitingSetup(deps, order.id, order.quantity);
    awaiting = true;
  }
  if (!awaiting) return;
  try {
    await sendSetupLink(deps, order, origin);
  } catch (error) {
    // The payment stands and the order shows 'awaiting setup'; an admin can re-send the link.
    console.error(`Delivery setup e-mail for order ${order.id} failed`, error);
  }
}

/** An admin fills in (or corrects) a paid live-transfer order's delivery settings. */
export async function adminSaveDelivery(deps: Deps, orderId: string, input: DeliverySettingsValues): Promise<void> {
  const order = await paidLiveTransferOrder(deps, orderId);
  await saveDeliverySettings(deps, order.id, order.quantity, settingsFromInput(input));
}

/** Every order's delivery (settings and counts) for /admin-orders, by order id. */
export async function deliveryViews(deps: Deps): Promise<Map<string, OrderDeliveryView>> {
  const rows = await deps.db.select().from(orderDelivery);
  return new Map(
    rows.map((row) => [
      row.orderId,
      {
        setupStatus: row.setupStatus,
        paused: row.paused,
        pausedReason: row.pausedReason,
        transfersTotal: row.transfersTotal,
        delivered: row.transfersBillable,
        notCharged: row.transfersNotCharged,
        remaining: Math.max(0, row.transfersTotal - row.transfersBillable),
        settings: inputFromSettings(row),
        hours:
          row.hoursStartMinute === null || row.hoursEndMinute === null || row.timeZone === null
            ? null
            : hoursLabel(row.hoursStartMinute, row.hoursEndMinute, row.timeZone),
        limits: limitsText(row),
      },
    ]),
  );
}

import { ORDER_STATUS_LABELS, type OrderStatus } from "../orders";

export type { OrderStatus };

/** Order status badges (product rule 45): Pending, Paid, Completed in green, Cancelled in red, Refunded in grey. */
const BADGE_CLASSES: Record<OrderStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  paid: "bg-sky-100 text-sky-900",
  completed: "bg-green-100 text-green-900",
  cancelled: "bg-red-100 text-red-900",
  refunded: "bg-slate-200 text-slate-900",
};

export function StatusBadge({ status }: { status: OrderStatus }) {
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${BADGE_CLASSES[status]}`}>
      {ORDER_STATUS_LABELS[status]}
    </span>
  );
}

export type OrderStatus = "pending" | "paid" | "completed" | "cancelled";

/** Order status badges (spec §4): Pending, Paid, Completed in green, Cancelled in red. */
const BADGES: Record<OrderStatus, { label: string; className: string }> = {
  pending: { label: "Pending", className: "bg-amber-100 text-amber-900" },
  paid: { label: "Paid", className: "bg-sky-100 text-sky-900" },
  completed: { label: "Completed", className: "bg-green-100 text-green-900" },
  cancelled: { label: "Cancelled", className: "bg-red-100 text-red-900" },
};

export function StatusBadge({ status }: { status: OrderStatus }) {
  const badge = BADGES[status];
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${badge.className}`}>{badge.label}</span>;
}

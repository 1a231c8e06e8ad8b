import type { ReturnStatus } from "../returns";

/** How a return's status reads to buyers and admins alike. */
export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  pending: "Pending review",
  approved: "Approved",
  denied: "Denied",
};

const RETURN_STATUS_CLASSES: Record<ReturnStatus, string> = {
  pending: "bg-amber-100 text-amber-900",
  approved: "bg-green-100 text-green-900",
  denied: "bg-red-100 text-red-900",
};

export function ReturnStatusBadge({ status }: { status: ReturnStatus }) {
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${RETURN_STATUS_CLASSES[status]}`}>
      {RETURN_STATUS_LABELS[status]}
    </span>
  );
}

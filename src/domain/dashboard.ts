/** Dashboard and admin-orders rules the pages need without zod (decision 0016); schemas/dashboard.ts validates. */

/** Page buttons shown at once under the aged-lead list. */
export const MAX_PAGE_BUTTONS = 5;

/** States as the buyer typed them ('TX, fl ,GA') → ['TX', 'FL', 'GA']. */
export const parseStates = (workingStates: string) =>
  workingStates
    .split(/[,;\n]/)
    .map((state) => state.trim().toUpperCase())
    .filter(Boolean);

/** Product rule 8: admins complete paid orders and cancel pending or paid ones. */
export const ORDER_TRANSITIONS = {
  completed: ["paid"],
  cancelled: ["pending", "paid"],
} as const;
/** The statuses an admin can set (the targets of ORDER_TRANSITIONS). */
export const ADMIN_ORDER_STATUSES = [
  "completed",
  "cancelled",
] as const satisfies readonly (keyof typeof ORDER_TRANSITIONS)[];

/** Money the shop has actually taken: only these statuses count as revenue (never pending or cancelled). */
export const REVENUE_STATUSES = ["paid", "completed"] as const;
export const REVENUE_LABEL = "Revenue (paid and completed)";

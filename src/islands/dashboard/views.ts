/** The dashboard's views, in the sidebar's order; each opens at /dashboard?view=<id>. */
export const DASHBOARD_VIEWS = [
  "aged-leads",
  "call-transfers",
  "appointments",
  "call-backs",
  "my-leads",
  "my-call-backs",
  "my-orders",
  "lead-tracker",
  "do-not-call-list",
  "integrations",
  "return-lead",
  "support",
] as const;
export type DashboardView = (typeof DASHBOARD_VIEWS)[number];

/**
 * The dashboard's views, in the sidebar's sections and order (product rule 45). Each is its own page with
 * its own island (decision 0074): /dashboard opens the first, every other one /dashboard/<id>.
 */
export const DASHBOARD_SECTIONS = [
  {
    title: "Purchase",
    views: [
      { id: "aged-leads", label: "Buy Aged Leads" },
      { id: "call-transfers", label: "Buy Call Transfers" },
      { id: "appointments", label: "Buy Appointments" },
      { id: "call-backs", label: "Buy Call Backs" },
    ],
  },
  {
    title: "My Account",
    views: [
      { id: "my-leads", label: "My Leads" },
      { id: "my-call-backs", label: "My Call-Backs" },
      { id: "my-orders", label: "My Orders" },
      { id: "lead-tracker", label: "Lead Tracker" },
      { id: "do-not-call-list", label: "My Do Not Call List" },
      { id: "integrations", label: "Integrations" },
    ],
  },
  {
    title: "Support",
    views: [
      { id: "return-lead", label: "Return a Lead" },
      { id: "support", label: "Support" },
    ],
  },
] as const;

export type DashboardView = (typeof DASHBOARD_SECTIONS)[number]["views"][number]["id"];

/** Every view's id, in the sidebar's order. */
export const DASHBOARD_VIEWS: readonly DashboardView[] = DASHBOARD_SECTIONS.flatMap((section) =>
  section.views.map((view) => view.id),
);

/** The view /dashboard itself opens. */
export const DASHBOARD_LANDING: DashboardView = "aged-leads";

/** The page of a view: /dashboard for the landing view, /dashboard/<id> for the others. */
export const dashboardPath = (view: DashboardView): string =>
  view === DASHBOARD_LANDING ? "/dashboard" : `/dashboard/${view}`;

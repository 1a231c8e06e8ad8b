/** /dashboard (product rule 45): a sidebar of purchase, account and support views; collapses on phones. */

import { type ReactNode, Suspense, useEffect, useState } from "react";
import { displayName, type PublicUser } from "../../domain/user";
import { LOGOUT_URL, mirrorUser } from "../../lib/session";
import { Button } from "../../ui/button";
import { lazyView } from "../../ui/lazy-view";
import { useViewUrl } from "../../ui/links";
import { Spinner } from "../../ui/spinner";
import { buttonClass } from "../../ui/styles";
import { AppProviders } from "../AppProviders";
import { DASHBOARD_VIEWS, type DashboardView as ViewId } from "./views";

// Each view is its own chunk: a page load fetches the open view's code only (decision 0032).
const AgedLeadsView = lazyView(() => import("./AgedLeadsView").then((m) => m.AgedLeadsView));
const CallbackMarketView = lazyView(() => import("./CallbackMarketView").then((m) => m.CallbackMarketView));
const CallTransfersView = lazyView(() => import("./CallTransfersView").then((m) => m.CallTransfersView));
const MyLeadsView = lazyView(() => import("./AccountViews").then((m) => m.MyLeadsView));
const MyCallbacksView = lazyView(() => import("./MyCallbacksView").then((m) => m.MyCallbacksView));
const MyOrdersView = lazyView(() => import("./AccountViews").then((m) => m.MyOrdersView));
const LeadTrackerView = lazyView(() => import("./LeadTrackerView").then((m) => m.LeadTrackerView));
const DoNotCallListView = lazyView(() => import("./DoNotCallListView").then((m) => m.DoNotCallListView));
const ReturnLeadView = lazyView(() => import("./ReturnLeadView").then((m) => m.ReturnLeadView));
const SupportView = lazyView(() => import("./SupportView").then((m) => m.SupportView));
const IntegrationsView = lazyView(() => import("./integrations/IntegrationsView").then((m) => m.IntegrationsView));

const isView = (id: string | null): id is ViewId => DASHBOARD_VIEWS.some((view) => view === id);

/** The view a dashboard URL's query string opens (`?view=`; the aged-lead list by default). */
const viewOf = (search: string): ViewId => {
  const id = new URLSearchParams(search).get("view");
  return isView(id) ? id : "aged-leads";
};

interface DashboardView {
  id: ViewId;
  label: string;
  render: (search: URLSearchParams) => ReactNode;
}

const SECTIONS: readonly { title: string; views: readonly DashboardView[] }[] = [
  {
    title: "Purchase",
    views: [
      { id: "aged-leads", label: "Buy Aged Leads", render: () => <AgedLeadsView /> },
      { id: "call-transfers", label: "Buy Call Transfers", render: () => <CallTransfersView /> },
      { id: "appointments", label: "Buy Appointments", render: () => <CallbackMarketView kind="appointment" /> },
      { id: "call-backs", label: "Buy Call Backs", render: () => <CallbackMarketView kind="callback" /> },
    ],
  },
  {
    title: "My Account",
    views: [
      { id: "my-leads", label: "My Leads", render: () => <MyLeadsView /> },
      { id: "my-call-backs", label: "My Call-Backs", render: () => <MyCallbacksView /> },
      { id: "my-orders", label: "My Orders", render: () => <MyOrdersView /> },
      { id: "lead-tracker", label: "Lead Tracker", render: () => <LeadTrackerView /> },
      { id: "do-not-call-list", label: "My Do Not Call List", render: () => <DoNotCallListView /> },
      { id: "integrations", label: "Integrations", render: () => <IntegrationsView /> },
    ],
  },
  {
    title: "Support",
    views: [
      {
        id: "return-lead",
        label: "Return a Lead",
        // `?transfer=` (from the Lead Tracker's Return action) preselects that transfer.
        render: (search) => <ReturnLeadView preselect={search.get("transfer")} />,
      },
      { id: "support", label: "Support", render: () => <SupportView /> },
    ],
  },
];

const VIEWS = SECTIONS.flatMap((section) => section.views);

interface DashboardProps {
  /** Who is signed in, as the server read it from the session. */
  user: PublicUser;
  /** The page's query string as the server received it (`?view=`, `?transfer=`). */
  search: string;
}

function DashboardShell({ user, search }: DashboardProps) {
  // Each view has its own URL (/dashboard?view=…): the sidebar's links push it, Back and Forward return.
  const url = useViewUrl(search);
  const view = viewOf(url.search);
  const [menuOpen, setMenuOpen] = useState(false);
  // The `user` mirror in localStorage is a display cache (product rule 28); the server's answer is the truth.
  useEffect(() => mirrorUser(user), [user]);

  const current = VIEWS.find((v) => v.id === view);
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 lg:flex-row">
      <aside className="lg:w-64 lg:shrink-0">
        <div className="flex items-center justify-between lg:block">
          <div>
            <h1 className="text-xl font-bold tracking-tight">Dashboard</h1>
            <p className="text-sm text-ink-soft">
              Signed in as <strong className="text-ink">{displayName(user)}</strong>
            </p>
          </div>
          <Button
            variant="secondary"
            className="lg:hidden"
            aria-expanded={menuOpen}
            aria-controls="dashboard-menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            {menuOpen ? "Close menu" : "Menu"}
          </Button>
        </div>
        <nav
          id="dashboard-menu"
          aria-label="Dashboard"
          className={`${menuOpen ? "block" : "hidden"} mt-4 space-y-6 lg:block`}
        >
          {SECTIONS.map((section) => (
            <div key={section.title}>
              <h2 className="px-3 text-xs font-semibold tracking-wider text-muted uppercase">{section.title}</h2>
              <ul className="mt-2 space-y-1">
                {section.views.map((item) => (
                  <li key={item.id}>
                    <a
                      href={`/dashboard?view=${item.id}`}
                      aria-current={item.id === view ? "page" : undefined}
                      onClick={(event) => {
                        setMenuOpen(false);
                        url.follow(event);
                      }}
                      className={`block w-full rounded-lg px-3 py-2 text-left text-sm font-medium ${item.id === view ? "bg-brand-50 text-brand-700" : "text-ink-soft hover:bg-white hover:text-ink"}`}
                    >
                      {item.label}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <a href={LOGOUT_URL} className={buttonClass("secondary", "md", "w-full")}>
            Logout
          </a>
        </nav>
      </aside>
      <div className="min-w-0 flex-1">
        <Suspense fallback={<Spinner label="Loading..." />}>
          {current?.render(new URLSearchParams(url.search))}
        </Suspense>
      </div>
    </div>
  );
}

export default function Dashboard(props: DashboardProps) {
  return (
    <AppProviders>
      <DashboardShell {...props} />
    </AppProviders>
  );
}

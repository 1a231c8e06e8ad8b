/** /dashboard (spec §2 "Dashboard"): a sidebar of purchase, account and support views; collapses on phones. */

import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { site } from "../../config/site";
import { displayName } from "../../domain/user";
import { useMe } from "../../lib/me";
import { $user, clearUserStores, LOGOUT_URL } from "../../lib/stores";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { Spinner } from "../../ui/spinner";
import { buttonClass } from "../../ui/styles";
import { AppProviders } from "../AppProviders";
import { AgedLeadsView } from "./AgedLeadsView";
import { DASHBOARD_VIEWS, type DashboardView as ViewId } from "./views";

// The other views load when first opened (decision 0016): the page opens on the aged-lead list.
const CallTransfersView = lazy(() => import("./CallTransfersView").then((m) => ({ default: m.CallTransfersView })));
const MyLeadsView = lazy(() => import("./AccountViews").then((m) => ({ default: m.MyLeadsView })));
const MyOrdersView = lazy(() => import("./AccountViews").then((m) => ({ default: m.MyOrdersView })));
const LeadTrackerView = lazy(() => import("./LeadTrackerView").then((m) => ({ default: m.LeadTrackerView })));
const ReturnLeadView = lazy(() => import("./ReturnLeadView").then((m) => ({ default: m.ReturnLeadView })));
const IntegrationsView = lazy(() =>
  import("./integrations/IntegrationsView").then((m) => ({ default: m.IntegrationsView })),
);

function ComingSoon({ title }: { title: string }) {
  return (
    <section className="space-y-4">
      <h2 className="text-2xl font-bold">{title}</h2>
      <Card className="text-center">
        <p className="text-lg font-semibold">{title} is coming soon.</p>
        <p className="mt-1 text-ink-soft">We are preparing this for you. Ask support if you need it today.</p>
      </Card>
    </section>
  );
}

function SupportView() {
  return (
    <section className="space-y-4">
      <h2 className="text-2xl font-bold">Support</h2>
      <Card>
        <p>
          Write to{" "}
          <a className="font-semibold text-brand-700 underline" href={`mailto:${site.supportEmail}`}>
            {site.supportEmail}
          </a>{" "}
          and we will answer {site.supportWindow}.
        </p>
      </Card>
    </section>
  );
}

const isView = (id: string | null): id is ViewId => DASHBOARD_VIEWS.some((view) => view === id);

interface DashboardView {
  id: ViewId;
  label: string;
  render: () => ReactNode;
}

const SECTIONS: readonly { title: string; views: readonly DashboardView[] }[] = [
  {
    title: "Purchase",
    views: [
      { id: "aged-leads", label: "Buy Aged Leads", render: () => <AgedLeadsView /> },
      { id: "call-transfers", label: "Buy Call Transfers", render: () => <CallTransfersView /> },
      { id: "appointments", label: "Buy Appointments", render: () => <ComingSoon title="Buy Appointments" /> },
      { id: "call-backs", label: "Buy Call Backs", render: () => <ComingSoon title="Buy Call Backs" /> },
    ],
  },
  {
    title: "My Account",
    views: [
      { id: "my-leads", label: "My Leads", render: () => <MyLeadsView /> },
      { id: "my-orders", label: "My Orders", render: () => <MyOrdersView /> },
      { id: "lead-tracker", label: "Lead Tracker", render: () => <LeadTrackerView /> },
      { id: "integrations", label: "Integrations", render: () => <IntegrationsView /> },
    ],
  },
  {
    title: "Support",
    views: [
      { id: "return-lead", label: "Return a Lead", render: () => <ReturnLeadView /> },
      { id: "support", label: "Support", render: () => <SupportView /> },
    ],
  },
];

const VIEWS = SECTIONS.flatMap((section) => section.views);

function DashboardShell() {
  const [view, setView] = useState<ViewId>("aged-leads");
  const [menuOpen, setMenuOpen] = useState(false);
  const me = useMe();
  // The `user` mirror (display only, D5) follows what the server says about the session.
  useEffect(() => {
    if (me.data) $user.set(me.data);
  }, [me.data]);

  useEffect(() => {
    const fromUrl = new URLSearchParams(window.location.search).get("view");
    if (isView(fromUrl)) setView(fromUrl);
  }, []);

  function open(id: ViewId) {
    setView(id);
    setMenuOpen(false);
    const url = new URL(window.location.href);
    url.searchParams.set("view", id);
    window.history.replaceState(null, "", url);
  }

  const current = VIEWS.find((v) => v.id === view);
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 sm:px-6 lg:flex-row">
      <aside className="lg:w-64 lg:shrink-0">
        <div className="flex items-center justify-between lg:block">
          <div>
            <h1 className="text-xl font-bold tracking-tight">Dashboard</h1>
            <p className="text-sm text-ink-soft">
              Signed in as <strong className="text-ink">{me.data ? displayName(me.data) : "…"}</strong>
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
                    <button
                      type="button"
                      aria-current={item.id === view ? "page" : undefined}
                      onClick={() => open(item.id)}
                      className={`w-full rounded-lg px-3 py-2 text-left text-sm font-medium ${item.id === view ? "bg-brand-50 text-brand-700" : "text-ink-soft hover:bg-white hover:text-ink"}`}
                    >
                      {item.label}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <a href={LOGOUT_URL} className={buttonClass("secondary", "md", "w-full")} onClick={clearUserStores}>
            Logout
          </a>
        </nav>
      </aside>
      <div className="min-w-0 flex-1">
        <Suspense fallback={<Spinner label="Loading..." />}>{current?.render()}</Suspense>
      </div>
    </div>
  );
}

export default function Dashboard() {
  return (
    <AppProviders>
      <DashboardShell />
    </AppProviders>
  );
}

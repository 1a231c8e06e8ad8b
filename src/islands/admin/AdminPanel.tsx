/** /admin (product rule 45): uploads, users, partner applications and fulfilment, one tab per URL. */
import { type ReactNode, Suspense, useEffect } from "react";
import type { PublicUser } from "../../domain/user";
import { LOGOUT_URL, mirrorUser } from "../../lib/session";
import { lazyView } from "../../ui/lazy-view";
import { useViewUrl } from "../../ui/links";
import { Spinner } from "../../ui/spinner";
import { buttonClass } from "../../ui/styles";
import { AppProviders } from "../AppProviders";
import { ADMIN_TABS, type AdminTab } from "./tabs";

// Each tab is its own chunk: a page load fetches the open tab's code only (decision 0032).
const AgedLeadsTab = lazyView(() => import("./uploads/AgedLeadsTab").then((m) => m.AgedLeadsTab));
const CallbacksTab = lazyView(() => import("./uploads/CallbacksTab").then((m) => m.CallbacksTab));
const UsersTab = lazyView(() => import("./UsersTab").then((m) => m.UsersTab));
const PartnersTab = lazyView(() => import("./PartnersTab").then((m) => m.PartnersTab));
const FulfilmentTab = lazyView(() => import("./FulfilmentTab").then((m) => m.default));
const SuppressionTab = lazyView(() => import("./SuppressionTab").then((m) => m.default));
const DoNotCallRequestsTab = lazyView(() => import("./DoNotCallRequestsTab").then((m) => m.default));

const isAdminTab = (value: string | null): value is AdminTab => ADMIN_TABS.some((tab) => tab.value === value);

/** The tab an /admin URL's query string opens (`?tab=`; Aged Leads by default). */
const tabOf = (search: string): AdminTab => {
  const value = new URLSearchParams(search).get("tab");
  return isAdminTab(value) ? value : "aged-leads";
};

const TABS: Record<AdminTab, (user: PublicUser) => ReactNode> = {
  "aged-leads": () => <AgedLeadsTab />,
  callbacks: () => <CallbacksTab />,
  users: (user) => <UsersTab currentUserId={user.id} />,
  "aff-network": () => <PartnersTab />,
  fulfilment: () => <FulfilmentTab />,
  "do-not-call": () => <SuppressionTab />,
  "dnc-requests": () => <DoNotCallRequestsTab />,
};

const tabHref = (tab: AdminTab) => `/admin?tab=${tab}`;

const cardLink =
  "flex h-full w-full flex-col items-start gap-1 rounded-2xl border border-line bg-white p-5 text-left shadow-sm transition hover:border-brand-600 hover:shadow-md";

interface AdminPanelProps {
  /** The signed-in admin, as the server read it from the session. */
  user: PublicUser;
  /** The page's query string as the server received it (`?tab=`). */
  search: string;
}

function Panel({ user, search }: AdminPanelProps) {
  // Each tab has its own URL (/admin?tab=…): the links push it, Back and Forward return.
  const url = useViewUrl(search);
  const tab = tabOf(url.search);
  // The `user` mirror in localStorage is a display cache (product rule 28); the server's answer is the truth.
  useEffect(() => mirrorUser(user), [user]);

  const current = ADMIN_TABS.find((item) => item.value === tab);
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Admin Panel</h1>
          <p className="text-ink-soft">Upload and manage leads</p>
        </div>
        <a href={LOGOUT_URL} className={buttonClass("secondary")}>
          Logout
        </a>
      </div>

      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <li>
          <a href="/admin-orders" className={cardLink}>
            <span className="font-semibold text-ink">New Orders</span>
            <span className="text-sm text-ink-soft">Live-transfer orders and their status.</span>
          </a>
        </li>
        {ADMIN_TABS.map((item) => (
          <li key={item.value}>
            <a
              href={tabHref(item.value)}
              className={`${cardLink} ${tab === item.value ? "border-brand-600 ring-2 ring-brand-600/20" : ""}`}
              onClick={url.follow}
              aria-current={tab === item.value ? "page" : undefined}
            >
              <span className="font-semibold text-ink">{item.card}</span>
              <span className="text-sm text-ink-soft">{item.text}</span>
            </a>
          </li>
        ))}
      </ul>

      <nav aria-label="Admin sections" className="mt-8">
        <ul className="flex flex-wrap gap-1 border-b border-line">
          {ADMIN_TABS.map((item) => (
            <li key={item.value}>
              <a
                href={tabHref(item.value)}
                onClick={url.follow}
                aria-current={tab === item.value ? "page" : undefined}
                className={`-mb-px block border-b-2 px-4 py-2.5 text-sm font-medium ${tab === item.value ? "border-brand-600 text-ink" : "border-transparent text-ink-soft hover:text-ink"}`}
              >
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="admin-tab-title" className="pt-6">
        {/* The tab's name heads its sections (h3) for assistive technology; the tab row shows it. */}
        <h2 id="admin-tab-title" className="sr-only">
          {current?.label}
        </h2>
        <Suspense fallback={<Spinner label="Loading..." />}>{TABS[tab](user)}</Suspense>
      </section>
    </div>
  );
}

export default function AdminPanel(props: AdminPanelProps) {
  return (
    <AppProviders>
      <Panel {...props} />
    </AppProviders>
  );
}

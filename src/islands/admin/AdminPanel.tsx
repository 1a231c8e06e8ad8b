import * as Tabs from "@radix-ui/react-tabs";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { useMe } from "../../lib/me";
import { $user, clearUserStores, LOGOUT_URL } from "../../lib/stores";
import { Spinner } from "../../ui/spinner";
import { buttonClass } from "../../ui/styles";
import { AppProviders } from "../AppProviders";
import { PartnersTab } from "./PartnersTab";
import { UsersTab } from "./UsersTab";
import { AgedLeadsTab } from "./uploads/AgedLeadsTab";
import { CallbacksTab } from "./uploads/CallbacksTab";

/** Loads when the tab is first opened, not with the page (decision 0016). */
const FulfilmentTab = lazy(() => import("./FulfilmentTab"));
const SuppressionTab = lazy(() => import("./SuppressionTab"));

/** `value` stays in the URL (?tab=); `label` is what the tab reads. */
export const ADMIN_TABS = [
  {
    value: "aged-leads",
    label: "Aged Leads",
    card: "Upload Aged Leads",
    text: "Single leads and bulk CSV files, priced by age.",
  },
  {
    value: "callbacks",
    label: "Callbacks",
    card: "Upload Callback Opportunities",
    text: "Add call-back prospects for buyers.",
  },
  { value: "users", label: "Users", card: "Manage Users", text: "See every account and change passwords." },
  {
    value: "aff-network",
    label: "Partner Applications",
    card: "Partner Applications",
    text: "Review, approve or reject partners.",
  },
  {
    value: "fulfilment",
    label: "Fulfilment",
    card: "Fulfilment",
    text: "Open orders, partners today and the returns queue.",
  },
  {
    value: "do-not-call",
    label: "Do Not Call",
    card: "Do Not Call Lists",
    text: "Suppression lists: upload, refresh every 31 days.",
  },
] as const;
type AdminTab = (typeof ADMIN_TABS)[number]["value"];

const isAdminTab = (value: string | null): value is AdminTab => ADMIN_TABS.some((tab) => tab.value === value);

const TAB_CONTENT: Record<AdminTab, ReactNode> = {
  "aged-leads": <AgedLeadsTab />,
  callbacks: <CallbacksTab />,
  users: <UsersTab />,
  "aff-network": <PartnersTab />,
  fulfilment: (
    <Suspense fallback={<Spinner label="Loading fulfilment..." />}>
      <FulfilmentTab />
    </Suspense>
  ),
  "do-not-call": (
    <Suspense fallback={<Spinner label="Loading the Do Not Call lists..." />}>
      <SuppressionTab />
    </Suspense>
  ),
};

const cardButton =
  "flex h-full w-full flex-col items-start gap-1 rounded-2xl border border-line bg-white p-5 text-left shadow-sm transition hover:border-brand-600 hover:shadow-md";

function Panel() {
  const [tab, setTab] = useState<AdminTab>("aged-leads");
  // The display mirror of who is signed in (e.g. the users tab asks an admin for their own current password).
  const me = useMe();
  useEffect(() => {
    if (me.data) $user.set(me.data);
  }, [me.data]);

  useEffect(() => {
    const fromUrl = new URLSearchParams(window.location.search).get("tab");
    if (isAdminTab(fromUrl)) setTab(fromUrl);
  }, []);

  function selectTab(value: string) {
    if (!isAdminTab(value)) return;
    setTab(value);
    const url = new URL(window.location.href);
    url.searchParams.set("tab", value);
    window.history.replaceState(null, "", url);
  }

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Admin Panel</h1>
          <p className="text-ink-soft">Upload and manage leads</p>
        </div>
        <a href={LOGOUT_URL} className={buttonClass("secondary")} onClick={clearUserStores}>
          Logout
        </a>
      </div>

      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <li>
          <a href="/admin-orders" className={cardButton}>
            <span className="font-semibold text-ink">New Orders</span>
            <span className="text-sm text-ink-soft">Live-transfer orders and their status.</span>
          </a>
        </li>
        {ADMIN_TABS.map((item) => (
          <li key={item.value}>
            <button
              type="button"
              className={`${cardButton} ${tab === item.value ? "border-brand-600 ring-2 ring-brand-600/20" : ""}`}
              onClick={() => selectTab(item.value)}
              aria-pressed={tab === item.value}
            >
              <span className="font-semibold text-ink">{item.card}</span>
              <span className="text-sm text-ink-soft">{item.text}</span>
            </button>
          </li>
        ))}
      </ul>

      <Tabs.Root value={tab} onValueChange={selectTab} className="mt-8">
        <Tabs.List aria-label="Admin sections" className="flex flex-wrap gap-1 border-b border-line">
          {ADMIN_TABS.map((item) => (
            <Tabs.Trigger
              key={item.value}
              value={item.value}
              className="-mb-px border-b-2 border-transparent px-4 py-2.5 text-sm font-medium text-ink-soft hover:text-ink data-[state=active]:border-brand-600 data-[state=active]:text-ink"
            >
              {item.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {ADMIN_TABS.map((item) => (
          <Tabs.Content key={item.value} value={item.value} className="pt-6">
            {TAB_CONTENT[item.value]}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </div>
  );
}

export default function AdminPanel() {
  return (
    <AppProviders>
      <Panel />
    </AppProviders>
  );
}

/**
 * The admin panel's tabs, in order; each is its own page with its own island (decision 0074): /admin opens
 * the first, every other one /admin/<value>. `label` is what the tab reads; `card` and `text` are its card
 * above the tabs.
 */
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
  {
    value: "dnc-requests",
    label: "Do Not Call Requests",
    card: "Do Not Call Requests",
    text: "Requests from /do-not-call: search, remove with a reason.",
  },
] as const;
export type AdminTab = (typeof ADMIN_TABS)[number]["value"];
/** The tabs' ids, in order. */
export const ADMIN_TAB_IDS: readonly AdminTab[] = ADMIN_TABS.map((tab) => tab.value);

/** The tab /admin itself opens. */
export const ADMIN_LANDING: AdminTab = "aged-leads";

/** The page of a tab: /admin for the landing tab, /admin/<value> for the others. */
export const adminPath = (tab: AdminTab): string => (tab === ADMIN_LANDING ? "/admin" : `/admin/${tab}`);

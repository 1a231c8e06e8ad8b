import type { RingcloudLeadType } from "../../pricing";

/** How the ringcloud wizard and checkout name each package. */
export const RINGCLOUD_PACKAGES: Record<RingcloudLeadType, { name: string; choice: string; description: string }> = {
  live_transfers: {
    name: "Live Transfer Package",
    choice: "Live Transfers",
    description: "Pre-screened prospects transferred live to your agents.",
  },
  call_backs: {
    name: "Call-Back Package",
    choice: "Call-Backs",
    description: "Scheduled call-backs with interested prospects.",
  },
  partial_apps: {
    name: "Aged Lead Package",
    choice: "Aged Leads (partial applications)",
    description: "Partial applications from final-expense shoppers.",
  },
};

/** The partner a ping comes from, as its API key says (the partners' `KeyOwner` is one). */
export interface PingSource {
  apiKeyId: string;
  partnerId: string;
  dailyCallCap: number;
  timeZone: string;
  /** Pings must carry `consent.trustedFormUrl` (an admin's setting, decision 0041). */
  requireTrustedForm: boolean;
}

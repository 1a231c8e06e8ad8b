/**
 * The partner API's 409 for a suppressed caller (product rule 40): its `reason` and its message, which
 * names no list (a buyer's private list, or which registry, is nobody else's business).
 */
export const SUPPRESSED_REASON = "suppressed";
export const SUPPRESSED_MESSAGE = "This caller's number is on a Do Not Call list: it cannot be routed.";
/** To spread into NO_ROUTE_REASONS (transfers.ts), which makes it part of the OpenAPI document's enum. */
export const SUPPRESSED_NO_ROUTE = { [SUPPRESSED_REASON]: SUPPRESSED_MESSAGE } as const;

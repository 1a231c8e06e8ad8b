/**
 * Live transfers, in three modules:
 * - ./transfer-routing: a partner's ping is routed to one eligible order and holds a slot on it;
 * - ./transfer-events: the dialer's events, billing by the buffer only while the slot is held;
 * - ./partner-portal: the partner's figures, transfer list and payout statement.
 * Pauses after unanswered calls are in ./delivery-pauses.
 */

export {
  findPartnerByUser,
  listPartnerTransfers,
  type PartnerProfile,
  partnerPayouts,
  partnerStats,
} from "../features/partners/partner-portal";
export { recordTransferEvent, type TransferEventInput } from "./transfer-events";
export { routeTransfer } from "./transfer-routing";

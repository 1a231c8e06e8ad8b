/**
 * Live transfers, in two modules:
 * - ./transfer-routing: a partner's ping is routed to one eligible order and holds a slot on it;
 * - ./transfer-events: the dialer's events, billing by the buffer only while the slot is held;
 * Pauses after unanswered calls are in ./no-answer-pauses.
 */

export { recordTransferEvent, type TransferEventInput } from "./transfer-events";
export { routeTransfer } from "./transfer-routing";

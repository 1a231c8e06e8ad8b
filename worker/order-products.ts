/**
 * The products sold through orders, registered with them once (docs/decisions/0077): above every feature,
 * so orders import no product. Imported by the API, the Queue consumer and the cron (and the Worker tests'
 * setup); the order of registration is the order of the statements in a refund's batch.
 */
import { agedLeadPayments } from "./features/aged-leads/aged-lead-payments";
import { callbackPayments } from "./features/callbacks/callback-payments";
import { registerOrderProducts } from "./features/orders/order-products";
import { returnPayments } from "./features/returns/return-payments";
import { transferPayments } from "./features/transfers/transfer-payments";

registerOrderProducts(agedLeadPayments, callbackPayments, returnPayments, transferPayments);

/** One row of GET /api/transfer-orders, as the Worker types it: the admin orders' list and its delivery dialog. */
import type { Answer, api } from "../../../lib/api";

export type TransferOrder = Answer<(typeof api)["transfer-orders"]["$get"]>[number];

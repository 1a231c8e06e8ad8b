/**
 * Test data factories (decision 0067, docs/testing.md): `const db = testDb()` once per test, then
 * `createBuyer(db)`, `createOrder(db, { quantity: 3 })`… Each answers the row it inserted; every
 * default is unique within the file and every override is a column of worker/db/schema/.
 */
export { createAgent } from "./agents";
export { createCredit } from "./balance";
export { createCallback } from "./callbacks";
export { createLead, createLeads } from "./leads";
export { createAgedLeadOrder, createCallbackOrder, createOpenOrder, createOrder } from "./orders";
export { createPartner } from "./partners";
export { closePaidCallbackOrders, endLeadHold } from "./state";
export { createSuppressionList } from "./suppression";
export { testDb } from "./test-db";
export { createTransfer, transferRow } from "./transfers";
export { createAdmin, createBuyer } from "./users";

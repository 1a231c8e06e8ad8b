/**
 * The whole data model (product rules 7-8, 12-15, 29-30, 34, 42). Times are epoch milliseconds,
 * money is integer cents, ids are random UUIDs unless a natural key exists.
 *
 * One file per feature (docs/decisions/0073-schema-folder.md); drizzle-kit reads the folder. A file imports
 * tables only from files earlier in this order, so no two files import each other (foreign keys point down):
 *   columns (helpers, no table) → accounts → system, orders → single-use-links (accounts, orders),
 *   imports → aged-leads (accounts, imports), callbacks, partners → transfers (accounts, orders, partners)
 *   → returns (accounts, aged-leads, transfers); suppression, registry-uploads and webhooks need accounts only.
 * This file only re-exports them: `import * as schema from "worker/db/schema"` sees every table.
 */
export * from "./accounts";
export * from "./aged-leads";
export * from "./callbacks";
export * from "./imports";
export * from "./orders";
export * from "./partners";
export * from "./registry-uploads";
export * from "./returns";
export * from "./single-use-links";
export * from "./suppression";
export * from "./system";
export * from "./transfers";
export * from "./webhooks";

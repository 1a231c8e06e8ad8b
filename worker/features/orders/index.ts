/**
 * The orders feature's public face (worker/ half): other features import it from here alone
 * (docs/decisions/0077-one-folder-per-feature.md).
 */
export * from "./balance";
export * from "./not-charged";
export * from "./order-products";
export * from "./orders";
export * from "./payments/provider";

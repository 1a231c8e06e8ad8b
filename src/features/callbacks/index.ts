/**
 * The callbacks feature's public face (src/ half): other features import it from here alone
 * (docs/decisions/0077-one-folder-per-feature.md).
 */
export * from "./callback-market";
export * from "./callback-outcomes";
export * from "./callbacks";
export * from "./schemas/callback-opportunity";
export * from "./schemas/callbacks";

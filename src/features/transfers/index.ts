/**
 * The transfers feature's public face (src/ half): other features import it from here alone
 * (docs/decisions/0077-one-folder-per-feature.md).
 */

export * from "./delivery-pauses";
export * from "./delivery-setup";
export * from "./order-progress";
export * from "./schemas/partner-api";
export * from "./transfers";

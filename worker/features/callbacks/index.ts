/**
 * The callbacks feature's public face (worker/ half): other features import it from here alone
 * (docs/decisions/0077-one-folder-per-feature.md).
 */

export * from "./callback-fulfilment";
export * from "./callbacks";

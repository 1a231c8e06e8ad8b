/**
 * The transfers feature's public face (worker/ half): other features import it from here alone
 * (docs/decisions/0077-one-folder-per-feature.md).
 */

export * from "./calling-window";
export * from "./delivery-pauses";
export * from "./ping-refusals";
export * from "./ping-source";
export * from "./prospect-zone";
export * from "./tracker";
export * from "./transfer-events";
export * from "./transfer-routing";

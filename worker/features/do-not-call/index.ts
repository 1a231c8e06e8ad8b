/**
 * The do-not-call feature's public face (worker/ half): other features import it from here alone
 * (docs/decisions/0077-one-folder-per-feature.md).
 */
export * from "./list-freshness";
export * from "./registry-checks";
export * from "./suppression-checks";
export * from "./suppression-rules";

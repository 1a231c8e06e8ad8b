/**
 * The do-not-call feature's public face (src/ half): other features import it from here alone
 * (docs/decisions/0077-one-folder-per-feature.md).
 */

// With extensions: the transfer rules load this index in scripts Node runs without tsx (simulate:calls).
export * from "./list-freshness.ts";
export * from "./private-lists.ts";
export * from "./revocations.ts";
export * from "./suppression.ts";

/**
 * The accounts feature's public face (worker/ half): other features import it from here alone
 * (docs/decisions/0077-one-folder-per-feature.md).
 */
export * from "./accounts";
export * from "./sign-in";
export * from "./users";

/**
 * The do-not-call feature's views' public face: other features' views (never their rules, services or
 * the Worker) import its views from here alone (docs/decisions/0077-one-folder-per-feature.md).
 */
export * from "./dnc-flag";

/**
 * The aged-leads feature's public face (src/ half): other features import it from here alone
 * (docs/decisions/0077-one-folder-per-feature.md).
 */
export * from "./leads";
export * from "./schemas/admin-leads";

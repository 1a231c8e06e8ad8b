/**
 * The aged-leads feature's views' public face: other features' views (never their rules, services or
 * the Worker) import its views from here alone (docs/decisions/0077-one-folder-per-feature.md).
 */
export * from "./uploads/BulkUploadViews";
export * from "./uploads/ConsentFields";
export * from "./uploads/import-api";
export * from "./uploads/useCsvImport";

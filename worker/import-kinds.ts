/**
 * The kinds of CSV import besides aged leads, registered with the import pipeline once (docs/decisions/0077):
 * above every feature, so the aged leads' pipeline imports no call-back. Imported by the API, the Queue
 * consumer (and the Worker tests' setup).
 */

import { registerImportKind } from "./features/aged-leads/imports";
import { callbackImports } from "./features/callbacks/callback-imports";

registerImportKind("callbacks", callbackImports);

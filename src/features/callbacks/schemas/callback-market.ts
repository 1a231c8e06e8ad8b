/** The marketplace of call-backs and appointments: its query and its purchase (docs/decisions/0061). */

import { z } from "../../../domain/schemas/zod.ts";
import { CALLBACK_KINDS } from "../callbacks.ts";

export const marketKindQuerySchema = z.object({
  kind: z.enum(CALLBACK_KINDS, { error: "kind must be callback or appointment" }).default("callback"),
});

export const callbackPurchaseSchema = z.object(
  { callbackId: z.string({ error: "Choose a call-back to buy." }).min(1, "Choose a call-back to buy.").max(100) },
  { error: "Send a JSON object with callbackId" },
);

/** Resuming a paused live-transfer order (decision 0027): the transfer number confirms or changes it. */

import { z } from "../../../domain/schemas/zod";
import { deliverySettingsInputSchema } from "./delivery-setup";

export * from "../delivery-pauses";

/**
 * `POST /api/tracker/orders/:orderId/resume`. The body is optional (a bare request resumes a buyer's
 * own pause); a pause the system set needs `transferPhone`: the current number to confirm it, or a new one.
 */
export const resumeDeliveriesSchema = z.object({
  transferPhone: deliverySettingsInputSchema.shape.transferPhone.optional(),
});

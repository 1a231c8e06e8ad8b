/**
 * The form and API fields of an order's own limits (docs/decisions/0068), each optional: the delivery
 * settings (./delivery-setup.ts) and the dashboard's order form (./dashboard.ts) ask them the same way.
 * The rules and messages are in ../delivery-limits.ts.
 */

import { z } from "../../../domain/schemas/zod";
import {
  isCalendarDay,
  LIMIT_MESSAGES,
  limitsProblem,
  MAX_CONCURRENT_TRANSFERS,
  MAX_TRANSFERS_PER_HOUR,
} from "../delivery-limits";

/** An empty form field (or a missing API field) is no value. */
const blankAsNone = (value: unknown) => (value === "" || value === null ? undefined : value);
const optionalDay = z.preprocess(
  blankAsNone,
  z.string({ error: LIMIT_MESSAGES.date }).refine(isCalendarDay, LIMIT_MESSAGES.date).optional(),
);
const optionalCap = (max: number, message: string) =>
  z.preprocess(
    blankAsNone,
    z.coerce.number({ error: message }).int(message).min(1, message).max(max, message).optional(),
  );
const weekday = z.coerce
  .number({ error: LIMIT_MESSAGES.day })
  .int(LIMIT_MESSAGES.day)
  .min(0, LIMIT_MESSAGES.day)
  .max(6, LIMIT_MESSAGES.day);

/** Weekdays (none = every day; form checkboxes send strings), a closure's first and last day, two caps. */
export const deliveryLimitsShape = {
  days: z.preprocess(
    (value) => (value === undefined || value === null || value === false ? [] : [value].flat()),
    z.array(weekday).max(7, LIMIT_MESSAGES.day),
  ),
  closedFrom: optionalDay,
  closedUntil: optionalDay,
  perHourCap: optionalCap(MAX_TRANSFERS_PER_HOUR, LIMIT_MESSAGES.perHour),
  maxConcurrent: optionalCap(MAX_CONCURRENT_TRANSFERS, LIMIT_MESSAGES.concurrent),
};

/** The checks across fields (a closure's order, the hourly cap within the daily one), for a superRefine. */
export function checkDeliveryLimits(
  values: { closedFrom?: string | undefined; closedUntil?: string | undefined; perHourCap?: number | undefined },
  perDayCap: number,
  context: z.core.$RefinementCtx,
): void {
  const problem = limitsProblem({
    closedFrom: values.closedFrom ?? null,
    closedUntil: values.closedUntil ?? null,
    perHourCap: values.perHourCap ?? null,
    perDayCap,
  });
  if (problem) context.addIssue({ code: "custom", path: [problem.field], message: problem.message });
}

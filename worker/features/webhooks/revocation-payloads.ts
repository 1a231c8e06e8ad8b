/**
 * The body of a `lead.suppressed` event (docs/decisions/0082), built from its revocation row (the event's
 * subject id): the sold item, its order, the number masked as the shop masks a number it does not show,
 * the list's kind, when the item was bought and when the number was listed.
 */
import { sql } from "drizzle-orm";
import { maskPhone } from "../../../src/domain/masking";
import type { AnyWebhookEventType } from "../../../src/features/webhook-outbox/index";
import type { WebhookDataInput } from "../../../src/features/webhooks/schemas/webhooks";
import { suppressionRevocations } from "../../db/schema";
import type { Deps } from "../../deps";

/** An event to build the body of (./payloads.ts builds every type's, this file the revocations'). */
export interface EventRow {
  id: string;
  type: AnyWebhookEventType;
  subjectId: string;
  createdAt: Date;
}

export async function revocationBuilder(deps: Deps, ids: string[]) {
  const rows = await deps.db
    .select()
    .from(suppressionRevocations)
    .where(sql`${suppressionRevocations.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return (event: EventRow) => {
    const row = byId.get(event.subjectId);
    if (!row) return null;
    return {
      item: { type: row.itemType, id: row.itemId },
      orderId: row.orderId,
      phone: maskPhone(row.phone),
      list: { kind: row.listKind },
      purchasedAt: row.soldAt.toISOString(),
      suppressedAt: row.createdAt.toISOString(),
    } satisfies WebhookDataInput<"lead.suppressed">;
  };
}

/** Store credit on a buyer's balance (decision 0067). */
import { balanceLedger } from "../../../worker/db/schema";
import type { Database } from "./db";

/** A ledger credit as an approved aged-lead return writes it. */
export async function createCredit(db: Database, userId: string, amountCents: number): Promise<void> {
  await db.insert(balanceLedger).values({ id: crypto.randomUUID(), userId, amountCents, reason: "return_credit" });
}

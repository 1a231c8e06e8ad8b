/** Fixtures for aged-lead bundles (decision 0057): listed leads of a chosen age band and state. */
import { createLeads, testDb } from "./factories";

const DAY_MS = 86_400_000;

export interface LeadOptions {
  state?: string;
  ageDays: number;
  withheld?: boolean;
  suppressed?: boolean;
}

/** `count` unsold leads `ageDays` old (which decides their band, product rule 5); answers their ids. */
export function insertLeads(count: number, options: LeadOptions): Promise<string[]> {
  const filled = Date.now() - options.ageDays * DAY_MS;
  return createLeads(testDb(), count, (i) => ({
    name: "Bea Bundle",
    email: "bea@example.com",
    state: options.state ?? "TX",
    formFillTime: new Date(filled - i * 1000),
    withheld: options.withheld ?? false,
    suppressedAt: options.suppressed ? new Date() : null,
  }));
}

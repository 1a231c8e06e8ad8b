/**
 * Money says its unit. Every field, key or parameter in src/domain and worker/ whose name
 * speaks of money (price, amount, total, balance, credit, payout) carries its unit (`…Cents`, `…Usd`),
 * unless it is named below: the payload names the spec fixes (kept, converted at the edge with a one-line
 * comment), another API's own field, or a count that only sounds like money.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(new URL(import.meta.url).pathname), "../..");
const MONEY = /(price|amount|total|balance|credit|payout)/i;
const UNIT = /(cents|usd)$/i;
/** Counted things (transfers, callbacks, rows) are counts, not money. */
const COUNTED = /(transfers|callbacks|rows|count)/i;

/** The one list of unit-less names allowed, by file, and why. */
const ALLOWED: Record<string, Record<string, string>> = {
  "src/domain/schemas/survey.ts": {
    totalPrice: "product rule 49: POST /api/survey: cents",
    amount: "product rule 49: the ringcloud checkout's query parameter: dollars",
    pricePerUnit: "product rule 49: the ringcloud checkout's query parameter: dollars",
  },
  "worker/features/orders/routes/surveys.ts": {
    totalPrice: "product rule 49: POST /api/survey: cents (read and answered)",
  },
  "worker/features/orders/checkout.ts": {
    amount: "product rule 49: create-payment-intent `amount` (dollars) and the ringcloud checkout's query (dollars)",
    pricePerUnit: "product rule 49: the ringcloud checkout's query parameter: dollars",
  },
  "src/domain/schemas/dashboard.ts": {
    currentPrice: "product rule 49: aged lead (list item): dollars",
    price: "product rule 49: aged lead (list item) and call transfer order (dashboard): dollars",
    totalPrice: "product rule 49: transfer order (admin view): dollars",
    total: "a page's row count",
  },
  "worker/features/aged-leads/lead-listing.ts": {
    currentPrice: "product rule 49: aged lead (list item): dollars",
    price: "product rule 49: aged lead (list item): dollars",
    total: "a page's row count",
  },
  "worker/features/aged-leads/owned-leads.ts": { total: "a page's row count" },
  "src/features/webhooks/schemas/webhook-settings.ts": { total: "a page's row count" },
  "worker/features/webhooks/log.ts": { total: "a count of deliveries" },
  "worker/features/transfers/transfer-orders.ts": {
    totalPrice: "product rule 49: transfer order (admin view): dollars",
  },
  "src/features/aged-leads/schemas/admin-leads.ts": {
    price: "product rule 49: aged lead (admin single form) and bulk lead row: dollars",
  },
  "src/features/aged-leads/csv-mapping.ts": { price: "product rule 49: bulk lead row: dollars" },
  "src/features/callbacks/schemas/callback-opportunity.ts": {
    price: "product rule 45: the admin's call-back (form and file rows), as an aged lead's: dollars",
  },
  "src/features/callbacks/schemas/callback-import.ts": {
    price: "decision 0069: a call-back file's column, as the admin form's: dollars",
  },
  "src/features/aged-leads/leads.ts": { price: "product rule 49: aged lead (admin single form, bulk row): dollars" },
  "src/features/returns/returns.ts": { total: "a page's row count" },
  "worker/features/returns/tracker.ts": { total: "a page's row count" },
  "worker/features/orders/payments/provider.ts": { amount: "Stripe's own field: cents" },
};

/** A property, key or parameter name and what follows its colon (the type, or the value). */
const KEY = /(?:^\s*|[{,(]\s*)(?:readonly\s+)?([A-Za-z_$][\w$]*)\??\s*:(?!:)(?=([^\n]*))/g;

/** The unit-less money names of one file's text: `name (line n)`. */
function unitlessMoney(file: string, text: string): string[] {
  const found: string[] = [];
  text.split("\n").forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed.startsWith("*") || trimmed.startsWith("//") || trimmed.startsWith("/*")) return;
    for (const [, name = "", rest = ""] of line.matchAll(KEY)) {
      if (!MONEY.test(name) || UNIT.test(name) || COUNTED.test(name)) continue;
      // Messages, labels and flags are not amounts.
      if (/^\s*(["'`]|boolean\b|string\b)/.test(rest)) continue;
      if (ALLOWED[file]?.[name]) continue;
      found.push(`${name} (line ${index + 1})`);
    }
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split("\\").join("/"));
}

describe("money says its unit", () => {
  // A feature's rules and schemas are the domain too; its views and tests are not (decision 0077).
  const files = [...sourceFiles("src/domain"), ...sourceFiles("src/features"), ...sourceFiles("worker")].filter(
    (file) => !/^src\/features\/[\w-]+\/views\/|(^|\/)test\//.test(file),
  );

  it("in every field, key and parameter of src/domain and worker/, but the names listed with their reason", () => {
    expect(files.length).toBeGreaterThan(100);
    const unitless = files.flatMap((file) =>
      unitlessMoney(file, readFileSync(join(ROOT, file), "utf8")).map((name) => `${file}: ${name}`),
    );
    expect(unitless).toEqual([]);
  });

  it("lists only names that still occur (a name renamed away leaves the list)", () => {
    const stale = Object.entries(ALLOWED).flatMap(([file, names]) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      return Object.keys(names).flatMap((name) =>
        new RegExp(`\\b${name}\\??\\s*:`).test(text) ? [] : [`${file}: ${name}`],
      );
    });
    expect(stale).toEqual([]);
  });
});

describe("the money-name check itself", () => {
  it.each([
    ["src/domain/schemas/payments.ts", "export interface PaymentStart {\n  amount: number;\n}"],
    ["worker/features/orders/orders.ts", "  return { id: order.id, amount: order.totalCents };"],
    ["worker/features/orders/balance.ts", "    .select({ total: sql<number>`sum(amount_cents)` })"],
    ["worker/features/orders/checkout.ts", "export function surveyQuote(answers: Answers, totalPrice: number) {"],
    ["src/features/returns/returns.ts", "  creditBalance?: number | null;"],
    ["worker/features/partners/partner-portal.ts", "  const line = { payout: billable * rate };"],
  ])("refuses %s containing %j", (file, text) => {
    expect(unitlessMoney(file, text)).not.toEqual([]);
  });

  it.each([
    ["src/domain/schemas/payments.ts", "  amountCents: number;"],
    ["src/features/returns/returns.ts", "  balanceCents: number;\n  paidWithBalance: boolean;"],
    ["src/features/orders/pricing.ts", "export const MESSAGES = { priceMax: `Price must be at most $4.50` };"],
    ["src/features/transfers/transfers.ts", "  transfersTotal: number;\n  totalTransfers: number;"],
    ["src/domain/schemas/dashboard.ts", "  price: number;"],
    ["worker/features/orders/orders.ts", "  // amount: the card's, in dollars"],
  ])("allows %s containing %j", (file, text) => {
    expect(unitlessMoney(file, text)).toEqual([]);
  });
});

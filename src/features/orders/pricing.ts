/**
 * Every price, range, default and tier the shop sells at (product rules 3-5).
 * Pure functions: the islands use them to display, the worker uses them to charge.
 * Money is integer cents everywhere; dollars appear only at the edges (display, spec payloads).
 */
import { formatUsd } from "../../domain/format.ts";

/** The card provider refuses a single charge above $999,999.99. */
export const MAX_CHARGE_CENTS = 99_999_999;

export const CURRENCY = "usd";

export type PackageContext = "special" | "high-volume" | "premium" | "enterprise" | "ultimate";

export interface PackageRule {
  /** Price per transfer before any volume tier applies. */
  unitCents: number;
  min: number;
  /** Largest count the input accepts; high volume is bounded only by the provider maximum. */
  max: number;
  defaultCount: number;
  /** What a non-numeric entry becomes (product rule 47). */
  nonNumericCount: number;
}

const HIGH_VOLUME_MIN = 50;

const HIGH_VOLUME_FIRST_TIER = { from: HIGH_VOLUME_MIN, to: 99, unitCents: 3200 } as const;
const HIGH_VOLUME_LAST_TIER = { from: 200, to: null, unitCents: 2800 } as const;

/** High-volume tiers, lowest first: a count uses the last tier whose `from` it reaches. */
export const HIGH_VOLUME_TIERS = [
  HIGH_VOLUME_FIRST_TIER,
  { from: 100, to: 149, unitCents: 3000 },
  { from: 150, to: 199, unitCents: 2900 },
  HIGH_VOLUME_LAST_TIER,
] as const;

export const PACKAGE_RULES: Record<PackageContext, PackageRule> = {
  special: { unitCents: 3900, min: 1, max: 1000, defaultCount: 25, nonNumericCount: 0 },
  "high-volume": {
    unitCents: HIGH_VOLUME_FIRST_TIER.unitCents,
    min: HIGH_VOLUME_MIN,
    max: Math.floor(MAX_CHARGE_CENTS / HIGH_VOLUME_LAST_TIER.unitCents),
    defaultCount: 50,
    nonNumericCount: HIGH_VOLUME_MIN,
  },
  premium: { unitCents: 3700, min: 1, max: 2000, defaultCount: 50, nonNumericCount: 0 },
  enterprise: { unitCents: 3500, min: 1, max: 5000, defaultCount: 100, nonNumericCount: 0 },
  ultimate: { unitCents: 3200, min: 1, max: 10000, defaultCount: 200, nonNumericCount: 0 },
};

/** Reads a count typed into a number input the way product rule 47 says: non-numeric → the context's fallback. */
export function parseCount(input: string | number | null | undefined, nonNumericCount: number): number {
  if (typeof input === "number") return Number.isFinite(input) ? Math.trunc(input) : nonNumericCount;
  const parsed = Number.parseInt(String(input ?? "").trim(), 10);
  return Number.isNaN(parsed) ? nonNumericCount : parsed;
}

function highVolumeTier(count: number): (typeof HIGH_VOLUME_TIERS)[number] {
  return HIGH_VOLUME_TIERS.findLast((tier) => count >= tier.from) ?? HIGH_VOLUME_FIRST_TIER;
}

export function highVolumeUnitCents(count: number): number {
  return highVolumeTier(count).unitCents;
}

/** '100-149 transfers: $30 each', '200+ transfers: $28 each'. */
export function highVolumeTierLabel(count: number): string {
  const tier = highVolumeTier(count);
  const range = tier.to === null ? `${tier.from}+` : `${tier.from}-${tier.to}`;
  return `${range} transfers: ${formatUsd(tier.unitCents, { cents: false })} each`;
}

export function packageUnitCents(context: PackageContext, count: number): number {
  return context === "high-volume" ? highVolumeUnitCents(count) : PACKAGE_RULES[context].unitCents;
}

export type Quote =
  | { ok: true; quantity: number; unitCents: number; totalCents: number }
  | { ok: false; message: string };

/** Checks a count against a range and the provider maximum, then prices it. */
function quote(quantity: number, unitCents: number, range: { min: number; max?: number }): Quote {
  if (!Number.isInteger(quantity)) return { ok: false, message: "Quantity must be a whole number" };
  if (quantity < range.min) return { ok: false, message: `Quantity must be at least ${range.min}` };
  if (range.max !== undefined && quantity > range.max)
    return { ok: false, message: `Quantity must be at most ${range.max}` };
  const totalCents = quantity * unitCents;
  if (totalCents > MAX_CHARGE_CENTS)
    return { ok: false, message: `Order total exceeds the maximum of ${formatUsd(MAX_CHARGE_CENTS)}` };
  return { ok: true, quantity, unitCents, totalCents };
}

export function quotePackage(context: PackageContext, count: number): Quote {
  const rule = PACKAGE_RULES[context];
  return quote(count, packageUnitCents(context, count), rule);
}

/** Pricing pages (product rules 4, 44): the advertised rate by daily call volume, and where each page's button goes. */
export const PRICING_PAGES = [
  {
    slug: "standard-pricing",
    name: "Standard Pricing",
    rateDollars: 40,
    audience: "Agencies under 100 calls per day",
    checkout: "/checkout",
  },
  {
    slug: "special-pricing",
    name: "Special Offer",
    rateDollars: 38,
    audience: "Agencies with 101-150 calls per day",
    checkout: "/checkout",
  },
  {
    slug: "premium-pricing",
    name: "Premium Volume Pricing",
    rateDollars: 35,
    audience: "Agencies with 151-199 calls per day",
    checkout: "/checkout-premium",
  },
  {
    slug: "enterprise-pricing",
    name: "Enterprise Volume Pricing",
    rateDollars: 32,
    audience: "Agencies with 200-299 calls per day",
    checkout: "/checkout-enterprise",
  },
  {
    slug: "ultimate-pricing",
    name: "Ultimate Volume Pricing",
    rateDollars: 28,
    audience: "Agencies with 300+ calls per day",
    checkout: "/checkout-ultimate",
  },
] as const;

export type PricingPageSlug = (typeof PRICING_PAGES)[number]["slug"];

/** A pricing page's advertised rate as the pages show it ('$40'). */
export const pricingPageRate = (page: { rateDollars: number }) =>
  formatUsd(dollarsToCents(page.rateDollars) ?? 0, { cents: false });

export function pricingPage(slug: PricingPageSlug) {
  const page = PRICING_PAGES.find((p) => p.slug === slug);
  if (!page) throw new Error(`Unknown pricing page ${slug}`);
  return page;
}

/** Lead age bands and their prices (product rule 5). */
export const AGE_RANGES = ["30-60", "60-90", "90-180"] as const;
export type AgeRange = (typeof AGE_RANGES)[number];

interface AgeBand {
  range: AgeRange;
  minAgeDays: number;
  maxAgeDays: number | null;
  unitCents: number;
}

const YOUNGEST_BAND: AgeBand = { range: "30-60", minAgeDays: 1, maxAgeDays: 60, unitCents: 500 };
const OLDEST_BAND: AgeBand = { range: "90-180", minAgeDays: 91, maxAgeDays: null, unitCents: 300 };

const AGED_LEAD_BANDS: readonly AgeBand[] = [
  YOUNGEST_BAND,
  { range: "60-90", minAgeDays: 61, maxAgeDays: 90, unitCents: 400 },
  OLDEST_BAND,
];

const DAY_MS = 86_400_000;

/** actualAge in days: the absolute difference between the form fill time and now, rounded up (product rule 48). */
export function leadAgeDays(formFillTime: Date | number, now: Date | number = Date.now()): number {
  return Math.ceil(Math.abs(Number(now) - Number(formFillTime)) / DAY_MS);
}

function ageRangeForDays(days: number): AgeRange {
  return (AGED_LEAD_BANDS.find((b) => b.maxAgeDays === null || days <= b.maxAgeDays) ?? OLDEST_BAND).range;
}

function ageRangeUnitCents(range: AgeRange): number {
  return (AGED_LEAD_BANDS.find((b) => b.range === range) ?? YOUNGEST_BAND).unitCents;
}

/**
 * Product rule 5: age from formFillTime at read time decides the band; without it the uploaded band;
 * without either, 30-60. An explicit price above 0 overrides the band's price.
 */
export function agedLeadPrice(
  lead: { formFillTime?: Date | number | null; ageRange?: AgeRange | null; priceCents?: number | null },
  now: Date | number = Date.now(),
): { ageRange: AgeRange; ageDays: number | null; priceCents: number } {
  const ageDays = lead.formFillTime == null ? null : leadAgeDays(lead.formFillTime, now);
  const ageRange = ageDays === null ? (lead.ageRange ?? "30-60") : ageRangeForDays(ageDays);
  const priceCents = lead.priceCents && lead.priceCents > 0 ? lead.priceCents : ageRangeUnitCents(ageRange);
  return { ageRange, ageDays, priceCents };
}

/**
 * The form-fill ages (ms before now) a band spans when the lead has a form fill time (product rule 5):
 * older than `aboveMs` (none for the youngest band) and at most `atMostMs` old (none for the oldest).
 * The same boundaries as `agedLeadPrice`, for queries that select leads by band (aged-lead bundles).
 */
export function ageBandSpanMs(range: AgeRange): { aboveMs: number | null; atMostMs: number | null } {
  const index = AGED_LEAD_BANDS.findIndex((band) => band.range === range);
  const previous = index > 0 ? AGED_LEAD_BANDS[index - 1] : undefined;
  const band = AGED_LEAD_BANDS[index] ?? YOUNGEST_BAND;
  return {
    aboveMs: previous?.maxAgeDays != null ? previous.maxAgeDays * DAY_MS : null,
    atMostMs: band.maxAgeDays === null ? null : band.maxAgeDays * DAY_MS,
  };
}

/** The aged-lead price rule (product rule 5) in words, for the template, the form hint and the pricing docs. */
export const AGED_LEAD_PRICING_RULE = AGED_LEAD_BANDS.map((band) => {
  const days = band.maxAgeDays === null ? `${band.minAgeDays}+ days` : `${band.minAgeDays}-${band.maxAgeDays} days`;
  return `${days}: ${formatUsd(band.unitCents)} (range ${band.range})`;
}).join("; ");

/** Survey lead types (product rules 4, 5). Quantities: at least 1, total within the provider maximum. */
export const SURVEY_LEAD_TYPES = ["Live Transfers", "Call-Backs", "Aged Leads"] as const;
export type SurveyLeadType = (typeof SURVEY_LEAD_TYPES)[number];

const SURVEY_AGED_CENTS: Record<AgeRange, number> = { "30-60": 400, "60-90": 300, "90-180": 200 };

export function surveyUnitCents(leadType: SurveyLeadType, ageRange?: AgeRange | null): number {
  if (leadType === "Live Transfers") return 3500;
  if (leadType === "Call-Backs") return 1500;
  return SURVEY_AGED_CENTS[ageRange ?? "30-60"];
}

export function quoteSurvey(leadType: SurveyLeadType, quantity: number, ageRange?: AgeRange | null): Quote {
  return quote(quantity, surveyUnitCents(leadType, ageRange), { min: 1 });
}

/** Ringcloud lead types (product rules 4, 5); the tier sent with its payment is 'ringcloud'. */
export const RINGCLOUD_LEAD_TYPES = ["live_transfers", "call_backs", "partial_apps"] as const;
export type RingcloudLeadType = (typeof RINGCLOUD_LEAD_TYPES)[number];
export const RINGCLOUD_TIER = "ringcloud";

const RINGCLOUD_PARTIAL_APPS_CENTS: Record<AgeRange, number> = { "30-60": 500, "60-90": 400, "90-180": 300 };

export function ringcloudUnitCents(leadType: RingcloudLeadType, ageRange?: AgeRange | null): number {
  if (leadType === "live_transfers") return 3700;
  if (leadType === "call_backs") return 1500;
  return ageRange ? RINGCLOUD_PARTIAL_APPS_CENTS[ageRange] : 500;
}

export function quoteRingcloud(leadType: RingcloudLeadType, quantity: number, ageRange?: AgeRange | null): Quote {
  return quote(quantity, ringcloudUnitCents(leadType, ageRange), { min: 1 });
}

/** Dashboard call-transfer orders: $35 per transfer, lead type fixed to Live Transfers. */
export const CALL_TRANSFER_UNIT_CENTS = 3500;

export function quoteCallTransfer(quantity: number): Quote {
  return quote(quantity, CALL_TRANSFER_UNIT_CENTS, { min: 1 });
}

/** Dollars as the spec's payloads carry them → cents; null when it is not an amount. */
export function dollarsToCents(dollars: number): number | null {
  if (!Number.isFinite(dollars) || dollars < 0) return null;
  const cents = Math.round(dollars * 100);
  return Math.abs(cents - dollars * 100) < 1e-6 ? cents : null;
}

/** Rules about leads shared by the upload screens, the import consumer and the seed data. */
import { hasConsentCertificate } from "../features/consent/consent.ts";
import { type AgeRange, dollarsToCents } from "./pricing.ts";

/** A phone number has at least this many digits (every form that asks for one). */
export const PHONE_MIN_DIGITS = 10;
export const PHONE_TOO_SHORT = `Phone number must be at least ${PHONE_MIN_DIGITS} digits`;
/** Room for formatting: '+1 (214) 555-0100 ext. 12'. */
export const PHONE_MAX_LENGTH = 30;

/** What an aged lead may hold (the single form and every CSV row, schemas/admin-leads.ts). */
export const LEAD_LIMITS = {
  nameLength: 200,
  /** A phone needs this many digits; its text may carry formatting up to `phoneLength` characters. */
  phoneDigits: PHONE_MIN_DIGITS,
  phoneLength: PHONE_MAX_LENGTH,
  stateMinLength: 2,
  stateLength: 50,
  /** An explicit price above this is a typo, not a price. */
  priceCents: 10_000_000,
} as const;

export const phoneDigits = (phone: string) => phone.replace(/\D/g, "");

/** Product rule 15: a lead with the same phone and formFillTime as an existing one is a duplicate. */
export function leadDedupeKey(phone: string, formFillTime: Date | number | null | undefined): string {
  return `${phoneDigits(phone)}|${formFillTime == null ? "" : Number(formFillTime)}`;
}

/** The phone's national number: a leading country code 1 of an 11-digit number dropped. */
export function nationalDigits(phone: string): string {
  const digits = phoneDigits(phone);
  return digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
}

/**
 * Ten digits of a US phone number (a leading country code 1 dropped), or null: the one rule for a callable
 * US number (transfers, delivery setup, suppression keys in suppression.ts).
 */
export function normalizeUsPhone(text: string): string | null {
  const national = nationalDigits(text);
  return /^[2-9]\d{9}$/.test(national) ? national : null;
}

/** The 10-digit US number as an integer, or null (suppression.ts's `phoneKey`, which lists and pings use). */
export function usPhoneKey(text: string): number | null {
  const national = normalizeUsPhone(text);
  return national === null ? null : Number(national);
}

/** '(214) 555-1000' → '214'; '' when the phone has fewer than three digits. Stored as aged_leads.area_code. */
export function leadAreaCode(phone: string): string {
  const national = nationalDigits(phone);
  return national.length >= 3 ? national.slice(0, 3) : "";
}

export const hasPhoneDigits = (phone: string) => phoneDigits(phone).length >= LEAD_LIMITS.phoneDigits;
/** A phone with enough digits that is still no US number (a lead must be one: it is checked against Do Not Call lists). */
export const isForeignPhone = (phone: string) => hasPhoneDigits(phone) && normalizeUsPhone(phone) === null;

/** A checked lead (from the single form or a CSV row) as aged_leads stores it, consent evidence included (product rule 39). */
export function storedLead(lead: {
  name: string;
  email?: string | undefined;
  phone: string;
  state: string;
  ageRange?: AgeRange | undefined;
  price?: number | undefined;
  formFillTime?: number | undefined;
  optInAt?: number | undefined;
  optInUrl?: string | undefined;
  consentText?: string | undefined;
  ipAddress?: string | undefined;
  trustedFormUrl?: string | undefined;
  jornayaLeadId?: string | undefined;
}) {
  const formFillTime = lead.formFillTime ?? null;
  return {
    name: lead.name,
    email: lead.email ?? null,
    phone: lead.phone,
    state: lead.state,
    ageRange: lead.ageRange ?? null,
    // The spec's lead `price` is in dollars; 0 = priced by age (product rule 5); the schema refused any but whole cents.
    priceCents: lead.price === undefined ? 0 : (dollarsToCents(lead.price) ?? 0),
    formFillTime,
    dedupeKey: leadDedupeKey(lead.phone, formFillTime),
    areaCode: leadAreaCode(lead.phone),
    optInAt: lead.optInAt ?? null,
    optInUrl: lead.optInUrl ?? null,
    consentText: lead.consentText ?? null,
    ipAddress: lead.ipAddress ?? null,
    trustedFormUrl: lead.trustedFormUrl ?? null,
    jornayaLeadId: lead.jornayaLeadId ?? null,
    certified: hasConsentCertificate(lead),
    /** What suppression lists are matched by (`phoneKey` in suppression.ts: the same rule). */
    phoneKey: usPhoneKey(lead.phone),
  };
}
export type StoredLead = ReturnType<typeof storedLead>;

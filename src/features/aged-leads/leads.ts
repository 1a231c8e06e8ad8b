/** Rules about leads shared by the upload screens, the import consumer and the seed data. */
import { leadAreaCode, PHONE_MAX_LENGTH, PHONE_MIN_DIGITS, phoneDigits, usPhoneKey } from "../../domain/phone.ts";
import { hasConsentCertificate } from "../consent/index.ts";
import { type AgeRange, dollarsToCents } from "../orders/index.ts";

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

/** Product rule 15: a lead with the same phone and formFillTime as an existing one is a duplicate. */
export function leadDedupeKey(phone: string, formFillTime: Date | number | null | undefined): string {
  return `${phoneDigits(phone)}|${formFillTime == null ? "" : Number(formFillTime)}`;
}

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

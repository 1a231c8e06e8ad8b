/** Rules about leads shared by the upload screens, the import consumer and the seed data. */

export const phoneDigits = (phone: string) => phone.replace(/\D/g, "");

/** D8: a lead with the same phone and formFillTime as an existing one is a duplicate. */
export function leadDedupeKey(phone: string, formFillTime: Date | number | null | undefined): string {
  return `${phoneDigits(phone)}|${formFillTime == null ? "" : Number(formFillTime)}`;
}

/** The phone's national number: a leading country code 1 of an 11-digit number dropped. */
export function nationalDigits(phone: string): string {
  const digits = phoneDigits(phone);
  return digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
}

/** '(214) 555-1000' → '214'; '' when the phone has fewer than three digits. Stored as aged_leads.area_code. */
export function leadAreaCode(phone: string): string {
  const national = nationalDigits(phone);
  return national.length >= 3 ? national.slice(0, 3) : "";
}

/** Phone numbers: the digits, the US national number, its area code (every form, list and ping that takes one). */

/** A phone number has at least this many digits (every form that asks for one). */
export const PHONE_MIN_DIGITS = 10;
export const PHONE_TOO_SHORT = `Phone number must be at least ${PHONE_MIN_DIGITS} digits`;
/** Room for formatting: '+1 (214) 555-0100 ext. 12'. */
export const PHONE_MAX_LENGTH = 30;

export const phoneDigits = (phone: string) => phone.replace(/\D/g, "");

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

export const hasPhoneDigits = (phone: string) => phoneDigits(phone).length >= PHONE_MIN_DIGITS;
/** A phone with enough digits that is still no US number (a lead must be one: it is checked against Do Not Call lists). */
export const isForeignPhone = (phone: string) => hasPhoneDigits(phone) && normalizeUsPhone(phone) === null;

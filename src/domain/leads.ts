/** Rules about leads shared by the upload screens, the import consumer and the seed data. */

export const phoneDigits = (phone: string) => phone.replace(/\D/g, "");

/** D8: a lead with the same phone and formFillTime as an existing one is a duplicate. */
export function leadDedupeKey(phone: string, formFillTime: Date | number | null | undefined): string {
  return `${phoneDigits(phone)}|${formFillTime == null ? "" : Number(formFillTime)}`;
}

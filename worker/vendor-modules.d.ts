/** Types for the packages that ship none (used server-side only, worker/features/transfers/prospect-zone.ts). */
declare module "zipcode-to-timezone" {
  /** The IANA zone of a five-digit ZIP code, or null. */
  export function lookup(zip: string): string | null;
}

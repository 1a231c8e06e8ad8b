/**
 * Brand, contact details, booking widget and landing-page stats (product rule 38).
 * Placeholders are deliberately fake (example.com, 555 numbers) until the business supplies real ones.
 */
/** An https address, or null when unset or not a valid https URL. */
export function bookingUrlFrom(value: unknown): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" ? url.toString() : null;
  } catch {
    return null;
  }
}

export const site = {
  brandName: "FinalLead Connect",
  tagline: "AI-powered live call transfers for final-expense agencies",
  phone: "(555) 010-0142",
  phoneHref: "tel:+15550100142",
  infoEmail: "info@example.com",
  supportEmail: "support@example.com",
  /** The booking widget's address, from `PUBLIC_BOOKING_URL` at build time; without it the landing page offers phone and e-mail. */
  bookingUrl: bookingUrlFrom((import.meta as { env?: Record<string, unknown> }).env?.PUBLIC_BOOKING_URL),
  /** Response promise for the support contact and setup calls. */
  supportWindow: "within 24 hours",
  stats: [
    { value: "4000+", label: "Call transfers delivered" },
    { value: "500+", label: "Agents served" },
    { value: "95%", label: "Success and satisfaction rate" },
  ],
  testimonial: {
    quote:
      "The transfers come in warm and ready to talk. My agents spend their day quoting instead of dialing, and the 120-second buffer means we only pay for real conversations.",
    author: "Senior Agent",
    company: "Final-expense agency, Texas",
  },
} as const;

/** Origin of the booking iframe, for the Content-Security-Policy frame-src (none without a booking URL). */
export const bookingOrigin = site.bookingUrl ? new URL(site.bookingUrl).origin : null;

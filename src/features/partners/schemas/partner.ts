/**
 * The partner (affiliate network) application (product rules 16, 34): the same schema checks the
 * form and the multipart fields of `POST /api/affnetwork-signup`.
 */

import { PHONE_MAX_LENGTH, PHONE_MIN_DIGITS, PHONE_TOO_SHORT } from "../../../domain/phone";
import { emailAddress, numberFromInput, requiredString } from "../../../domain/schemas/common";
import { z } from "../../../domain/schemas/zod";
import { APPLICATION_DECISIONS, type ApplicationStatus, PAYMENT_TERMS, TIME_ZONES } from "../partner";

// The rules the form needs without zod live in ../partner (decision 0016).
export {
  DOCUMENT_ERRORS,
  DOCUMENT_TYPES,
  documentFileName,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENTS,
  sniffDocument,
} from "../partner";

/** A count from a form field ("12") or JSON (12). */
const countField = (message: string) =>
  z.preprocess(numberFromInput, z.number({ error: message }).int(message).min(1, message).max(1_000_000, message));
const optionalText = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((value) => value || undefined);

export const partnerApplicationSchema = z.object({
  businessName: requiredString("Business name is required", 1, 200),
  businessAddress: requiredString("Business address is required", 1, 300),
  city: requiredString("City is required", 1, 100),
  state: requiredString("State is required", 2, 50),
  zip: requiredString("ZIP code is required", 5, 10),
  ein: requiredString("EIN is required", 9, 20),
  mainContact: requiredString("Main contact is required", 1, 200),
  contactPhone: requiredString(PHONE_TOO_SHORT, PHONE_MIN_DIGITS, PHONE_MAX_LENGTH),
  contactEmail: emailAddress("Please enter a valid email address"),
  paymentTerms: z.enum(PAYMENT_TERMS, { error: "Please choose payment terms" }),
  numberOfAgents: countField("Number of agents is required"),
  officeHours: requiredString("Office hours are required", 1, 200),
  timeZone: z.enum(TIME_ZONES, { error: "Please choose a time zone" }),
  payPerTransfer: requiredString("Pay per transfer is required", 1, 50),
  didNumber: requiredString("DID number is required", 1, 30),
  dailyCallCap: countField("Daily call cap is required"),
  reference1CompanyName: optionalText,
  reference1ContactName: optionalText,
  reference1Phone: optionalText,
  reference2CompanyName: optionalText,
  reference2ContactName: optionalText,
  reference2Phone: optionalText,
});
export type PartnerApplication = z.output<typeof partnerApplicationSchema>;

export const applicationStatusSchema = z.object({
  status: z.enum(APPLICATION_DECISIONS, { error: `Status must be ${APPLICATION_DECISIONS.join(" or ")}` }),
});

/** A partner application as the admin tab reads it. */
export interface PartnerApplicationView extends PartnerApplication {
  id: string;
  status: ApplicationStatus;
  approvedAt: string | null;
  createdAt: string;
  documents: {
    id: string;
    filename: string;
    originalName: string;
    size: number;
    contentType: string;
    uploadDate: string;
  }[];
  /** Approved, and the partner has not yet chosen a password through the invitation (an admin can re-send it). */
  invitationPending: boolean;
}

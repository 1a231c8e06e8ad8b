/** The single aged-lead form's consent evidence (product rule 39): six optional fields, checked by the lead schema. */
import type { UseFormReturn } from "react-hook-form";
import { CONSENT_FIELD_LABELS, TRUSTEDFORM_CERT_HOST } from "../../../domain/consent";
import type { AdminAgedLead, AdminAgedLeadInput } from "../../../domain/schemas/admin-leads";
import { fieldProps } from "../../../ui/form";
import { Field } from "../../../ui/input";

/** The datetime-local input's value, read in the admin's time zone, as an ISO instant. */
export const toIso = (local: string) => (local ? new Date(local).toISOString() : "");

export function ConsentFields({ form }: { form: UseFormReturn<AdminAgedLeadInput, unknown, AdminAgedLead> }) {
  const label = (field: keyof typeof CONSENT_FIELD_LABELS) => `${CONSENT_FIELD_LABELS[field]} (optional)`;
  return (
    <fieldset className="space-y-3 rounded-xl border border-line p-4">
      <legend className="px-1 text-sm font-semibold">Consent evidence</legend>
      <p className="text-sm text-ink-soft">
        Buyers see it after purchase. A TrustedForm certificate or a Jornaya LeadiD marks the lead "with certificate".
      </p>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label={label("optInAt")} type="datetime-local" {...fieldProps(form, "optInAt", { setValueAs: toIso })} />
        <Field label={label("optInUrl")} type="url" placeholder="https://" {...fieldProps(form, "optInUrl")} />
        <Field label={label("consentText")} {...fieldProps(form, "consentText")} />
        <Field label={label("ipAddress")} inputMode="text" {...fieldProps(form, "ipAddress")} />
        <Field
          label={label("trustedFormUrl")}
          type="url"
          placeholder={`${TRUSTEDFORM_CERT_HOST}…`}
          {...fieldProps(form, "trustedFormUrl")}
        />
        <Field
          label={label("jornayaLeadId")}
          placeholder="XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX"
          {...fieldProps(form, "jornayaLeadId")}
        />
      </div>
    </fieldset>
  );
}

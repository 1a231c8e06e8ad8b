/**
 * The consent evidence of the admin's forms (product rule 39): six optional fields, checked by the form's
 * schema with `consentEvidenceShape` (the single aged lead; the callbacks tab's call-back, decision 0059). Each
 * form hands in its fields' wiring: the single lead's react-hook-form (`consentFieldProps`), the call-back's
 * `useSchemaForm` (docs/decisions/0079).
 */
import type { Ref } from "react";
import type { FieldValues, UseFormReturn } from "react-hook-form";
import { fieldProps } from "../../../../ui/form";
import { Field, type FieldProps } from "../../../../ui/input";
import { CONSENT_FIELD_LABELS, type ConsentField, TRUSTEDFORM_CERT_HOST } from "../../../consent/index";

/** The datetime-local input's value, read in the admin's time zone, as an ISO instant. */
export const toIso = (local: string) => (local ? new Date(local).toISOString() : "");

/** A form's values as far as these fields go. */
type ConsentValues = Partial<Record<ConsentField, unknown>>;

const LEAD_NOTE =
  'Buyers see it after purchase. A TrustedForm certificate or a Jornaya LeadiD marks the lead "with certificate".';

/** A consent field's wiring and message, spread on its Field. */
type ConsentWiring = (name: ConsentField) => Omit<FieldProps, "label"> & { ref?: Ref<HTMLInputElement> };

/** A react-hook-form's wiring of the six fields (the opt-in time kept as an ISO instant). */
export function consentFieldProps<Values extends FieldValues & ConsentValues, Output>(
  anyForm: UseFormReturn<Values, unknown, Output>,
): ConsentWiring {
  // Every form it serves spreads `consentEvidenceShape`, so these six names are its fields.
  const form = anyForm as unknown as UseFormReturn<ConsentValues>;
  return (name) => fieldProps(form, name, name === "optInAt" ? { setValueAs: toIso } : undefined);
}

export function ConsentFields({
  field,
  note = LEAD_NOTE,
}: {
  field: ConsentWiring;
  /** The line under the legend: what the evidence is for on this form. */
  note?: string;
}) {
  const label = (field: keyof typeof CONSENT_FIELD_LABELS) => `${CONSENT_FIELD_LABELS[field]} (optional)`;
  return (
    <fieldset className="space-y-3 rounded-xl border border-line p-4">
      <legend className="px-1 text-sm font-semibold">Consent evidence</legend>
      <p className="text-sm text-ink-soft">{note}</p>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label={label("optInAt")} type="datetime-local" {...field("optInAt")} />
        <Field label={label("optInUrl")} type="url" placeholder="https://" {...field("optInUrl")} />
        <Field label={label("consentText")} {...field("consentText")} />
        <Field label={label("ipAddress")} inputMode="text" {...field("ipAddress")} />
        <Field
          label={label("trustedFormUrl")}
          type="url"
          placeholder={`${TRUSTEDFORM_CERT_HOST}…`}
          {...field("trustedFormUrl")}
        />
        <Field
          label={label("jornayaLeadId")}
          placeholder="XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX"
          {...field("jornayaLeadId")}
        />
      </div>
    </fieldset>
  );
}

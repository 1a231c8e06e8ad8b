/** The single aged-lead form (product rule 5): the band and price shown live from the form fill time. */

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { formatUsd } from "../../../domain/format";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Form, fieldProps, lazyZodResolver } from "../../../ui/form";
import { Field, SelectField } from "../../../ui/input";
import { toast } from "../../../ui/toast";
import { AGE_RANGES, AGED_LEAD_PRICING_RULE, agedLeadPrice, dollarsToCents } from "../../orders/index";
import { isAgeRange } from "../csv-mapping";
import type { AdminAgedLead, AdminAgedLeadInput } from "../schemas/admin-leads";
import { ConsentFields, consentFieldProps, toIso } from "./uploads/ConsentFields";

export function SingleLeadForm() {
  const queryClient = useQueryClient();
  const form = useForm<AdminAgedLeadInput, unknown, AdminAgedLead>({
    resolver: lazyZodResolver(() => import("../schemas/admin-leads").then((m) => m.adminAgedLeadSchema)),
  });
  const [localTime, ageRange, price] = form.watch(["formFillTime", "ageRange", "price"]);
  const formFillTime = typeof localTime === "string" && localTime ? Date.parse(localTime) : null;
  const hint = agedLeadPrice({
    formFillTime: formFillTime !== null && !Number.isNaN(formFillTime) ? formFillTime : null,
    ageRange: typeof ageRange === "string" && isAgeRange(ageRange) ? ageRange : null,
    priceCents: dollarsToCents(Number(price || 0)) ?? 0,
  });

  const save = useMutation({
    mutationFn: (values: AdminAgedLead) =>
      call(
        api.admin["aged-leads"].$post({
          json: {
            ...values,
            ...(values.formFillTime && hint.ageDays !== null ? { actualAge: hint.ageDays } : {}),
          },
        }),
      ),
    onSuccess: () => {
      toast({ title: "Success", description: "Aged lead uploaded successfully", variant: "success" });
      form.reset();
      void queryClient.invalidateQueries({ queryKey: ["/api/admin/aged-leads"] });
    },
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to upload aged lead"), variant: "destructive" }),
  });

  return (
    <Card>
      <h3 className="text-lg font-bold">Add a single aged lead</h3>
      <Form className="mt-4 space-y-5" onSubmit={form.handleSubmit((values) => save.mutate(values))}>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Name" {...fieldProps(form, "name")} />
          <Field label="Email (optional)" type="email" {...fieldProps(form, "email")} />
          <Field label="Phone" type="tel" {...fieldProps(form, "phone")} />
          <Field label="State" {...fieldProps(form, "state")} />
          <SelectField
            label="Age range (optional)"
            placeholder="From the form fill time"
            options={AGE_RANGES.map((range) => ({ value: range, label: range }))}
            {...fieldProps(form, "ageRange")}
          />
          <Field
            label="Price (optional)"
            type="number"
            min={0}
            step="0.01"
            placeholder="Automatic"
            {...fieldProps(form, "price")}
          />
          <Field
            label="Form fill time (optional)"
            type="datetime-local"
            {...fieldProps(form, "formFillTime", { setValueAs: toIso })}
          />
        </div>
        <ConsentFields field={consentFieldProps(form)} />
        <p className="rounded-lg bg-surface px-4 py-3 text-sm" data-testid="price-hint">
          {hint.ageDays !== null ? `Age ${hint.ageDays} days · ` : ""}Band {hint.ageRange} ·{" "}
          <strong>{formatUsd(hint.priceCents)}</strong>
          <span className="mt-1 block text-ink-soft">Automatic pricing: {AGED_LEAD_PRICING_RULE}.</span>
        </p>
        <Button type="submit" busy={save.isPending}>
          {save.isPending ? "Uploading..." : "Upload Lead"}
        </Button>
      </Form>
    </Card>
  );
}

/** The callbacks tab (product rule 45): the callback-opportunity form and the latest opportunities. */
import { useForm } from "react-hook-form";
import { formatUsd } from "../../../domain/pricing";
import type { CallbackOpportunity, CallbackOpportunityInput } from "../../../domain/schemas/admin-leads";
import { api, call, errorMessage } from "../../../lib/api";
import { useMutation, useQuery, useQueryClient } from "../../../lib/query";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Form, fieldProps, lazyZodResolver } from "../../../ui/form";
import { Field } from "../../../ui/input";
import { QueryView } from "../../../ui/query-view";
import { Table } from "../../../ui/table";
import { toast } from "../../../ui/toast";

const LIST_KEY = ["/api/admin/callback-opportunities"];

export function CallbacksTab() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: LIST_KEY,
    queryFn: () => call(api.admin["callback-opportunities"].$get()),
  });
  const form = useForm<CallbackOpportunityInput, unknown, CallbackOpportunity>({
    resolver: lazyZodResolver(() =>
      import("../../../domain/schemas/admin-leads").then((m) => m.callbackOpportunitySchema),
    ),
  });
  const save = useMutation({
    mutationFn: (values: CallbackOpportunity) => call(api.admin["callback-opportunities"].$post({ json: values })),
    onSuccess: () => {
      toast({ title: "Success", description: "Callback opportunity uploaded successfully", variant: "success" });
      form.reset();
      void queryClient.invalidateQueries({ queryKey: LIST_KEY });
    },
    onError: (error) =>
      toast({
        title: "Error",
        description: errorMessage(error, "Failed to upload callback opportunity"),
        variant: "destructive",
      }),
  });

  return (
    <div className="space-y-6">
      <Card>
        <h3 className="text-lg font-bold">Upload a callback opportunity</h3>
        <Form className="mt-4 space-y-5" onSubmit={form.handleSubmit((values) => save.mutate(values))}>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Name" {...fieldProps(form, "name")} />
            <Field label="Email" type="email" {...fieldProps(form, "email")} />
            <Field label="Phone" type="tel" {...fieldProps(form, "phone")} />
            <Field label="State" {...fieldProps(form, "state")} />
            <Field label="Price" type="number" min={0} step="0.01" {...fieldProps(form, "price")} />
          </div>
          <Button type="submit" busy={save.isPending}>
            {save.isPending ? "Uploading..." : "Upload Callback"}
          </Button>
        </Form>
      </Card>
      <section aria-labelledby="callbacks-list" className="space-y-3">
        <h3 id="callbacks-list" className="text-lg font-bold">
          Latest callback opportunities
        </h3>
        <QueryView
          query={list}
          loading="Loading..."
          failed="Could not load the opportunities."
          empty="No callback opportunities yet."
        >
          {(rows) => (
            <Table label="Latest callback opportunities" headers={["Name", "Email", "Phone", "State", "Price"]}>
              {rows.map((row) => (
                <tr key={row.id} className="border-t border-line">
                  <td className="px-4 py-2 font-medium">{row.name}</td>
                  <td className="px-4 py-2">{row.email}</td>
                  <td className="px-4 py-2">{row.phone}</td>
                  <td className="px-4 py-2">{row.state}</td>
                  <td className="px-4 py-2">{formatUsd(row.priceCents)}</td>
                </tr>
              ))}
            </Table>
          )}
        </QueryView>
      </section>
    </div>
  );
}

/** The call-transfer order form (product rules 4, 22, 45): it loads when the buyer starts an order, not with the page. */

import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { parseStates } from "../../../domain/dashboard";
import { formatUsd } from "../../../domain/format";
import type { CallTransferForm } from "../../../domain/schemas/dashboard";
import { api, call, errorMessage } from "../../../lib/api";
import { $pendingTransferOrder } from "../../../lib/stores";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { LiveTransferFields } from "../../../ui/field-blocks";
import { Form, fieldProps, lazyZodResolver } from "../../../ui/form";
import { Field } from "../../../ui/input";
import { buttonClass } from "../../../ui/styles";
import { toast } from "../../../ui/toast";
import { CALL_TRANSFER_UNIT_CENTS } from "../../orders/index";
import { DeliveryLimitFields } from "./DeliveryLimitFields";

interface OrderFormProps {
  defaultValues: CallTransferForm | undefined;
  /** The order is placed and its payment prepared (kept as the pending order). */
  onOrdered: (values: CallTransferForm) => void;
  onBack: () => void;
}

export default function CallTransferOrderForm({ defaultValues, onOrdered, onBack }: OrderFormProps) {
  const form = useForm({
    // Checkboxes hold their values as text: the chosen days come back checked after 'Back'.
    ...(defaultValues ? { defaultValues: { ...defaultValues, days: defaultValues.days.map(String) } } : {}),
    resolver: lazyZodResolver(() => import("../../../domain/schemas/dashboard").then((m) => m.callTransferFormSchema)),
  });
  const totalTransfers = Number(form.watch("totalTransfers")) || 0;
  const totalCents = Math.max(totalTransfers, 0) * CALL_TRANSFER_UNIT_CENTS;

  const order = useMutation({
    mutationFn: (values: CallTransferForm) =>
      call(
        api["call-transfer-order"].$post({
          json: {
            ...values,
            leadType: "Live Transfers",
            price: (values.totalTransfers * CALL_TRANSFER_UNIT_CENTS) / 100,
          },
        }),
      ),
    onSuccess: (payment, values) => {
      if (!payment?.clientSecret) {
        toast({
          title: "Error",
          description: "Payment setup failed - no client secret received.",
          variant: "destructive",
        });
        return;
      }
      $pendingTransferOrder.set({
        transferDetails: {
          totalTransfers: values.totalTransfers,
          transfersPerDay: values.callsPerDay,
          states: parseStates(values.workingStates),
        },
        totalPrice: payment.amountCents / 100,
        clientSecret: payment.clientSecret,
        payment,
      });
      onOrdered(values);
    },
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to create order"), variant: "destructive" }),
  });

  return (
    <section aria-labelledby="transfers-title" className="space-y-5">
      <h2 id="transfers-title" className="text-2xl font-bold">
        Order Call Transfers
      </h2>
      <Card>
        <Form className="space-y-5" onSubmit={form.handleSubmit((values) => order.mutate(values))}>
          <LiveTransferFields
            form={form}
            names={{ total: "totalTransfers", perDay: "callsPerDay", hours: "transferHours", phone: "transferPhone" }}
            perDayLabel="Calls per day"
          />
          <Field label="Working states" placeholder="e.g. TX, FL, GA" {...fieldProps(form, "workingStates")} />
          <DeliveryLimitFields
            wiring={{
              field: (name) => fieldProps(form, name),
              day: (day) => ({ value: day, ...form.register("days") }),
            }}
          />
          <p className="rounded-lg bg-brand-50 px-4 py-3">
            Lead type: Live Transfers · {Math.max(totalTransfers, 0)} × {formatUsd(CALL_TRANSFER_UNIT_CENTS)} ={" "}
            <strong>{formatUsd(totalCents)}</strong>
          </p>
          <div className="flex flex-wrap justify-between gap-3">
            <button type="button" className={buttonClass("ghost")} onClick={onBack}>
              Back
            </button>
            <Button type="submit" size="lg" busy={order.isPending}>
              {order.isPending ? "Creating order..." : "Continue to Payment"}
            </Button>
          </div>
        </Form>
      </Card>
    </section>
  );
}

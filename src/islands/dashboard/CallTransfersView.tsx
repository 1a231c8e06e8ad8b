/** Buy Call Transfers (spec §2, §4, §5): info → form → card payment; the pending order is kept for /transfer-checkout. */
import { useStore } from "@nanostores/react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { parseStates } from "../../domain/dashboard";
import { CALL_TRANSFER_UNIT_CENTS, formatUsd } from "../../domain/pricing";
import type { CallTransferForm } from "../../domain/schemas/dashboard";
import { TRANSFER_BUFFER_SECONDS } from "../../domain/transfers";
import { api, call, errorMessage } from "../../lib/api";
import { useMutation } from "../../lib/query";
import { $pendingTransferOrder } from "../../lib/stores";
import { Button } from "../../ui/button";
import { Card } from "../../ui/card";
import { CheckList } from "../../ui/check-list";
import { Form, fieldProps, lazyZodResolver } from "../../ui/form";
import { Field } from "../../ui/input";
import { buttonClass } from "../../ui/styles";
import { toast } from "../../ui/toast";
import { PaymentCard } from "../payment/PaymentCard";

const BENEFITS = [
  "Pre-screened, warmed final-expense prospects",
  "Transferred live to the number you choose",
  `Only calls longer than ${TRANSFER_BUFFER_SECONDS} seconds are charged`,
  "Delivered in the states and hours you set",
];

export function CallTransfersView() {
  const pending = useStore($pendingTransferOrder);
  const [stage, setStage] = useState<"info" | "form">(pending ? "form" : "info");
  const form = useForm({
    resolver: lazyZodResolver(() => import("../../domain/schemas/dashboard").then((m) => m.callTransferFormSchema)),
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
    },
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to create order"), variant: "destructive" }),
  });

  if (stage === "info") {
    return (
      <section aria-labelledby="transfers-title" className="space-y-5">
        <h2 id="transfers-title" className="text-2xl font-bold">
          Buy Call Transfers
        </h2>
        <Card className="space-y-4">
          <p className="text-lg">
            Live final-expense transfers at <strong>{formatUsd(CALL_TRANSFER_UNIT_CENTS)}</strong> per transfer.
          </p>
          <CheckList items={BENEFITS} />
          <Button size="lg" onClick={() => setStage("form")}>
            Start an Order
          </Button>
        </Card>
      </section>
    );
  }

  if (pending) {
    return (
      <section aria-labelledby="transfers-title" className="space-y-5">
        <h2 id="transfers-title" className="text-2xl font-bold">
          Pay for your transfers
        </h2>
        <p className="text-ink-soft">
          {pending.transferDetails.totalTransfers} transfers, {pending.transferDetails.transfersPerDay} per day, in{" "}
          {pending.transferDetails.states.join(", ")}.{" "}
          <a className="text-brand-700 underline" href="/transfer-checkout">
            Pay on a separate page
          </a>
        </p>
        <PaymentCard
          payment={pending.payment}
          submitLabel={`Complete Payment - ${formatUsd(pending.payment.amountCents)}`}
          outcome={{
            returnUrl: `${window.location.origin}/thank-you?order=${pending.payment.orderId}`,
            successDescription: "Thank you! A confirmation e-mail is on its way.",
          }}
        />
        <Button variant="secondary" onClick={() => $pendingTransferOrder.set(undefined)}>
          Back to Form
        </Button>
      </section>
    );
  }

  return (
    <section aria-labelledby="transfers-title" className="space-y-5">
      <h2 id="transfers-title" className="text-2xl font-bold">
        Order Call Transfers
      </h2>
      <Card>
        <Form className="space-y-5" onSubmit={form.handleSubmit((values) => order.mutate(values))}>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Total transfers"
              type="number"
              min={1}
              {...fieldProps(form, "totalTransfers", { valueAsNumber: true })}
            />
            <Field
              label="Calls per day"
              type="number"
              min={1}
              {...fieldProps(form, "callsPerDay", { valueAsNumber: true })}
            />
            <Field
              label="Transfer hours"
              placeholder="e.g. Mon-Fri 9am-5pm EST"
              {...fieldProps(form, "transferHours")}
            />
            <Field label="Transfer phone" type="tel" {...fieldProps(form, "transferPhone")} />
          </div>
          <Field label="Working states" placeholder="e.g. TX, FL, GA" {...fieldProps(form, "workingStates")} />
          <p className="rounded-lg bg-brand-50 px-4 py-3">
            Lead type: Live Transfers · {Math.max(totalTransfers, 0)} × {formatUsd(CALL_TRANSFER_UNIT_CENTS)} ={" "}
            <strong>{formatUsd(totalCents)}</strong>
          </p>
          <div className="flex flex-wrap justify-between gap-3">
            <button type="button" className={buttonClass("ghost")} onClick={() => setStage("info")}>
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

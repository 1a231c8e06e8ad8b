/**
 * The Fulfilment tab's Deliveries cell (decision 0027): active, paused (and why), and for a pause the
 * system set, Lift pause — the only way once it needs an admin (the third within 24 hours).
 */

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import type { PauseView } from "../delivery-pauses";

export function PauseCell({
  order,
  queryKey,
}: {
  order: { orderId: string; paused: boolean; pause: PauseView | null };
  queryKey: string;
}) {
  const queryClient = useQueryClient();
  const [error, setError] = useState("");
  const lift = useMutation({
    mutationFn: () => call(api.admin.orders[":orderId"]["lift-pause"].$post({ param: { orderId: order.orderId } })),
    onSuccess: async () => {
      setError("");
      await queryClient.invalidateQueries({ queryKey: [queryKey] });
    },
    onError: (failure) => setError(errorMessage(failure, "The pause could not be lifted. Please try again.")),
  });
  if (!order.paused) return <>Active</>;
  return (
    <div className="w-56 space-y-1.5 whitespace-normal">
      <span className="font-semibold text-amber-900">Paused</span>
      {order.pause && <span className="block text-xs text-ink-soft">{order.pause.reason}</span>}
      {order.pause?.needsAdmin && (
        <span className="block text-xs font-semibold text-red-800">Needs an admin: third system pause in 24 hours</span>
      )}
      {order.pause?.kind === "no_answer" && (
        <Button variant="secondary" busy={lift.isPending} onClick={() => lift.mutate()}>
          Lift pause
        </Button>
      )}
      {error && (
        <p role="alert" className="text-xs text-danger-600">
          {error}
        </p>
      )}
    </div>
  );
}

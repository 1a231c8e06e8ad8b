/** My Orders' "Agents" button on a live-transfer order: opens the order's Agents panel (its own chunk). */
import { lazy, Suspense, useId, useState } from "react";
import { Button } from "../../../../ui/button";
import { Spinner } from "../../../../ui/spinner";

const AgentsPanel = lazy(() => import("./AgentsPanel"));

export function OrderAgents({ orderId }: { orderId: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <div className="w-full space-y-3">
      <Button variant="secondary" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>
        {open ? "Hide agents" : "Agents"}
      </Button>
      <div id={id} hidden={!open}>
        {open && (
          <Suspense fallback={<Spinner label="Loading the agents..." />}>
            <AgentsPanel orderId={orderId} />
          </Suspense>
        )}
      </div>
    </div>
  );
}

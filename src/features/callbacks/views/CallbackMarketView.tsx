/**
 * Buy Call Backs and Buy Appointments (docs/decisions/0061): the unassigned ones of a kind, masked like
 * aged leads, each with its window in the buyer's time zone and the prospect's; bought one at a time by
 * balance or card. A bought appointment offers its calendar invite (.ics) at once.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, useState } from "react";
import { formatDayTimeIn, formatUsd, formatWindowIn } from "../../../domain/format";
import { dashboardPath } from "../../../islands/dashboard/views";
import { type Answer, ApiError, api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Dialog } from "../../../ui/dialog";
import { Spinner } from "../../../ui/spinner";
import { buttonClass } from "../../../ui/styles";
import { toast } from "../../../ui/toast";
import { RESERVATION_MINUTES } from "../../orders/index";
import { icsPath, type MarketCallback } from "../callback-market";
import type { CallbackKind } from "../callbacks";

/** The payment step loads when the buyer has reserved one (decision 0016). */
const PaymentCard = lazy(() => import("../../orders/views/index").then((m) => ({ default: m.PaymentCard })));

type Purchase = Answer<(typeof api)["callback-market"]["purchase"]["$post"]>;

const COPY: Record<CallbackKind, { title: string; noun: string; plural: string; intro: string }> = {
  callback: {
    title: "Buy Call Backs",
    noun: "call-back",
    plural: "call-backs",
    intro: "Prospects who asked to be called back within a window. Full contact details after purchase.",
  },
  appointment: {
    title: "Buy Appointments",
    noun: "appointment",
    plural: "appointments",
    intro: "Prospects who set a time for your call. Full contact details and a calendar invite after purchase.",
  },
};

/** An appointment's time, or a call-back's window, as a zone's clock reads it (the browser's when none). */
function when(item: MarketCallback, timeZone?: string): string {
  const start = Date.parse(item.windowStart);
  if (item.kind === "appointment") return formatDayTimeIn(start, timeZone);
  return formatWindowIn(start, Date.parse(item.windowEnd), timeZone);
}

/** What was bought, for the confirmation. */
interface Bought {
  callbackId: string;
  kind: CallbackKind;
  name: string;
}

export function CallbackMarketView({ kind }: { kind: CallbackKind }) {
  const copy = COPY[kind];
  const queryClient = useQueryClient();
  const [purchase, setPurchase] = useState<(Purchase & { item: MarketCallback }) | null>(null);
  const [bought, setBought] = useState<Bought | null>(null);
  const [buying, setBuying] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ["/api/callback-market", kind],
    queryFn: () => call(api["callback-market"].$get({ query: { kind } })),
  });
  const items = list.data?.items;

  async function purchased(started: Purchase, item: MarketCallback) {
    setPurchase(null);
    // Paid: the order says whether the buyer's own Do Not Call list held the number (decision 0049).
    const order = await call(
      api.orders[":orderId"].status.$get({ param: { orderId: started.orderId }, query: {} }),
    ).catch(() => null);
    void queryClient.invalidateQueries();
    if (order && order.status !== "paid") {
      toast({
        title: "Not delivered",
        description: order.notice ?? `This ${copy.noun} could not be delivered; your payment was refunded.`,
        variant: "destructive",
      });
      return;
    }
    setBought({ callbackId: started.callbackId, kind: started.kind, name: item.name });
  }

  const buy = useMutation({
    mutationFn: (item: MarketCallback) =>
      call(api["callback-market"].purchase.$post({ json: { callbackId: item.id } })).then((started) => ({
        ...started,
        item,
      })),
    // A balance that covers the price has paid it: no card step.
    onSuccess: (started) => (started.paidWithBalance ? purchased(started, started.item) : setPurchase(started)),
    onError: (error) => {
      toast({
        title: "Purchase failed",
        description: errorMessage(error, `The ${copy.noun} could not be reserved`),
        variant: "destructive",
      });
      if (error instanceof ApiError && error.status === 409) void list.refetch();
    },
  });

  return (
    <section aria-labelledby="callback-market-title" className="space-y-5">
      <div>
        <h2 id="callback-market-title" className="text-2xl font-bold">
          {copy.title}
        </h2>
        <p className="text-ink-soft">{copy.intro}</p>
      </div>

      {list.isPending ? (
        <Spinner label={`Loading ${copy.plural}...`} />
      ) : list.isError || !items ? (
        <div className="space-y-3" role="alert">
          <p className="text-ink-soft">The {copy.plural} could not be loaded.</p>
          <Button variant="secondary" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </div>
      ) : items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line py-12 text-center text-ink-soft">
          No {copy.plural} are available right now. New ones arrive during the day.
        </p>
      ) : (
        <ul aria-label={`Available ${copy.plural}`} className="grid gap-4 lg:grid-cols-2">
          {items.map((item) => (
            <li key={item.id}>
              <Card className="space-y-3">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h3 className="text-lg font-semibold">{item.name}</h3>
                  <span className="font-semibold">{formatUsd(item.priceCents)}</span>
                </div>
                <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-ink-soft">Phone</dt>
                  <dd className="font-mono">{item.phone}</dd>
                  <dt className="text-ink-soft">State</dt>
                  <dd>{item.state}</dd>
                  <dt className="text-ink-soft">Your time</dt>
                  <dd>{when(item)}</dd>
                  <dt className="text-ink-soft">Their time</dt>
                  <dd>{when(item, item.timeZone)}</dd>
                </dl>
                <Button
                  className="w-full sm:w-auto"
                  onClick={() => {
                    setBuying(item.id);
                    buy.mutate(item);
                  }}
                  busy={buy.isPending && buying === item.id}
                  disabled={buy.isPending}
                  aria-label={`Buy ${copy.noun} ${item.name}, ${when(item)}, for ${formatUsd(item.priceCents)}`}
                >
                  Buy {copy.noun}
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}

      <Dialog
        open={purchase !== null}
        onOpenChange={(open) => !open && setPurchase(null)}
        title={`Pay for your ${copy.noun}`}
        description={
          purchase &&
          `${purchase.item.name} is held for you for ${RESERVATION_MINUTES} minutes. Total ${formatUsd(purchase.amountCents + purchase.balanceAppliedCents)}.`
        }
      >
        {purchase && purchase.balanceAppliedCents > 0 && (
          <p className="mb-4 rounded-lg bg-brand-50 px-4 py-3 text-sm">
            Balance applied: −{formatUsd(purchase.balanceAppliedCents)}. To pay by card:{" "}
            {formatUsd(purchase.amountCents)}.
          </p>
        )}
        {purchase && (
          <PaymentCard
            payment={purchase}
            submitLabel={`Complete Payment - ${formatUsd(purchase.amountCents)}`}
            outcome={{
              returnUrl: dashboardPath("my-call-backs"),
              successDescription: `Your ${copy.noun} is in My Call-Backs`,
              onPaid: () => purchased(purchase, purchase.item),
            }}
          />
        )}
      </Dialog>

      <Dialog
        open={bought !== null}
        onOpenChange={(open) => !open && setBought(null)}
        title="Purchase complete"
        description={bought && `${bought.name} is yours: the full contact is in My Call-Backs.`}
      >
        {bought && (
          <div className="flex flex-wrap gap-3">
            {bought.kind === "appointment" && (
              <a href={icsPath(bought.callbackId)} download className={buttonClass("primary")}>
                Download calendar invite (.ics)
              </a>
            )}
            <a href={dashboardPath("my-call-backs")} className={buttonClass("secondary")}>
              Open My Call-Backs
            </a>
          </div>
        )}
      </Dialog>
    </section>
  );
}

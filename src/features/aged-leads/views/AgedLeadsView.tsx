/** Buy Aged Leads (product rules 12-14, 45: masked previews, 50 a page, sold once). */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, useEffect, useMemo, useState } from "react";
import { CALLABLE_NOW_FILTER_LABEL } from "../../../domain/callable";
import { formatUsd } from "../../../domain/format";
import { countOf } from "../../../domain/units";
import { dashboardPath } from "../../../islands/dashboard/views";
import { type Answer, ApiError, api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { CallableText } from "../../../ui/callable";
import { Checkbox } from "../../../ui/checkbox";
import { Dialog } from "../../../ui/dialog";
import { useHydrated } from "../../../ui/hydrated";
import { Pager } from "../../../ui/pager";
import { Spinner } from "../../../ui/spinner";
import { inputClass } from "../../../ui/styles";
import { Table } from "../../../ui/table";
import { toast } from "../../../ui/toast";
import { CERTIFICATE_FILTER_LABEL, CERTIFICATE_STATUS_LABELS, certificateStatus } from "../../consent/index";
import { RESERVATION_MINUTES } from "../../orders/index";

/** A reservation's payment: the card amount, and the part the buyer's balance pays. */

/** The payment step loads when the buyer has reserved leads (decision 0016). */
const PaymentCard = lazy(() => import("../../orders/views/index").then((m) => ({ default: m.PaymentCard })));

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function AgedLeadsView() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [filterInput, setFilterInput] = useState("");
  const hydrated = useHydrated();
  const location = useDebounced(filterInput.trim(), 300);
  const [certifiedOnly, setCertifiedOnly] = useState(false);
  const [callableOnly, setCallableOnly] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [purchase, setPurchase] = useState<Answer<(typeof api)["bulk-purchase-leads"]["$post"]> | null>(null);

  // Spec §4: a new filter goes back to page 1; any page or filter change clears the selection.
  const filters = `${location}|${certifiedOnly}|${callableOnly}`;
  const [appliedLocation, setAppliedLocation] = useState(filters);
  if (filters !== appliedLocation) {
    setAppliedLocation(filters);
    setPage(1);
    setSelected(new Set());
  }

  const leads = useQuery({
    queryKey: ["/api/aged-leads", page, location, certifiedOnly, callableOnly],
    queryFn: () =>
      call(
        api["aged-leads"].$get({
          query: {
            page: String(page),
            ...(location ? { location } : {}),
            ...(certifiedOnly ? { certified: "true" } : {}),
            ...(callableOnly ? { callable: "true" } : {}),
          },
        }),
      ),
  });
  const items = leads.data?.items ?? [];
  const selectedTotal = useMemo(
    () => items.filter((lead) => selected.has(lead.id)).reduce((sum, lead) => sum + lead.priceCents, 0),
    [items, selected],
  );

  const buy = useMutation({
    mutationFn: (leadIds: string[]) => call(api["bulk-purchase-leads"].$post({ json: { leadIds } })),
    // A balance that covers the whole order has paid it: no card step.
    onSuccess: (started) => (started.paidWithBalance ? purchased(started) : setPurchase(started)),
    onError: (error) => {
      toast({
        title: "Bulk Purchase Failed",
        description: errorMessage(error, "Failed to purchase leads"),
        variant: "destructive",
      });
      if (error instanceof ApiError && error.status === 409) {
        // The taken leads leave the selection (and the list); the rest stay chosen.
        const taken = new Set(Array.isArray(error.body.unavailable) ? error.body.unavailable : []);
        setSelected((current) => new Set([...current].filter((id) => !taken.has(id))));
        void leads.refetch();
      }
    },
  });

  function goTo(next: number) {
    setPage(next);
    setSelected(new Set());
  }

  function toggle(id: string, on: boolean) {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  }

  function purchaseSelected() {
    if (selected.size === 0) {
      toast({
        title: "No Leads Selected",
        description: "Please select at least one lead to purchase.",
        variant: "destructive",
      });
      return;
    }
    buy.mutate([...selected]);
  }

  /**
   * Paid: the order then says how many leads were on the buyer's own Do Not Call list and were left out,
   * not charged (product rule 40; never before payment).
   */
  async function purchased({ count, orderId }: { count: number; orderId: string }) {
    setPurchase(null);
    setSelected(new Set());
    const order = await call(api.orders[":orderId"].status.$get({ param: { orderId }, query: {} })).catch(() => null);
    const notCharged = order?.notCharged ?? 0;
    toast({
      title: "Bulk Purchase Successful",
      description:
        notCharged > 0
          ? `Successfully purchased ${count - notCharged} leads. ${order?.notice ?? ""}`
          : `Successfully purchased ${count} leads`,
      variant: "success",
    });
    void queryClient.invalidateQueries();
  }

  const allOnPage = items.length > 0 && items.every((lead) => selected.has(lead.id));
  const someOnPage = items.some((lead) => selected.has(lead.id));

  return (
    <section aria-labelledby="aged-leads-title" className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="aged-leads-title" className="text-2xl font-bold">
            Buy Aged Leads
          </h2>
          <p className="text-ink-soft">Partial applications priced by age. Full contact details after purchase.</p>
        </div>
        <div className="w-full sm:w-80">
          <label htmlFor="location-filter" className="mb-1.5 block text-sm font-medium">
            Filter by location
          </label>
          <input
            id="location-filter"
            type="search"
            className={inputClass}
            placeholder="States or area codes, e.g. TX, 305"
            value={filterInput}
            onChange={(e) => setFilterInput(e.target.value)}
            // What is typed before React hydrates would be lost (decision 0009).
            disabled={!hydrated}
          />
          <label className="mt-2 flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="h-4 w-4 accent-brand-600"
              checked={certifiedOnly}
              onChange={(e) => setCertifiedOnly(e.target.checked)}
            />
            {CERTIFICATE_FILTER_LABEL}
          </label>
          <label className="mt-2 flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="h-4 w-4 accent-brand-600"
              checked={callableOnly}
              onChange={(e) => setCallableOnly(e.target.checked)}
            />
            {CALLABLE_NOW_FILTER_LABEL}
          </label>
        </div>
      </div>

      <div className="sticky top-0 z-10 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-line bg-white p-4 shadow-sm">
        <p className="text-sm">
          <strong>{selected.size}</strong> selected · Total{" "}
          <strong data-testid="selection-total">{formatUsd(selectedTotal)}</strong>
        </p>
        <Button onClick={purchaseSelected} busy={buy.isPending}>
          {buy.isPending ? "Reserving..." : "Purchase Selected Leads"}
        </Button>
      </div>

      {leads.isPending ? (
        <Spinner label="Loading leads..." />
      ) : leads.isError ? (
        <p className="text-ink-soft">Leads could not be loaded. Please reload the page.</p>
      ) : items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line py-12 text-center text-ink-soft">
          {callableOnly
            ? "No aged leads match that may be called right now."
            : certifiedOnly
              ? `No aged leads match right now with a ${CERTIFICATE_STATUS_LABELS.unverified.toLowerCase()}.`
              : "No aged leads available at this time."}
        </p>
      ) : (
        <Table
          label="Available aged leads"
          headers={[
            <Checkbox
              key="all"
              label="Select all leads on this page"
              checked={allOnPage ? true : someOnPage ? "indeterminate" : false}
              onCheckedChange={(on) => setSelected(on ? new Set(items.map((lead) => lead.id)) : new Set())}
            />,
            "Name",
            "Phone",
            "State",
            "Filled",
            "Age",
            "Band",
            "Certificate",
            "Calling",
            "Price",
          ]}
        >
          {items.map((lead) => (
            <tr key={lead.id} className="border-t border-line">
              <td className="w-10 px-4 py-3">
                <Checkbox
                  label={`Select ${lead.name}`}
                  checked={selected.has(lead.id)}
                  onCheckedChange={(on) => toggle(lead.id, on)}
                />
              </td>
              <td className="px-4 py-3 font-medium">{lead.name}</td>
              <td className="px-4 py-3 font-mono">{lead.phone}</td>
              <td className="px-4 py-3">{lead.state}</td>
              <td className="px-4 py-3">{lead.formFillTime ?? "—"}</td>
              <td className="px-4 py-3">{lead.actualAge === null ? "—" : `${lead.actualAge} days`}</td>
              <td className="px-4 py-3">{lead.currentAgeRange}</td>
              <td className="px-4 py-3">{CERTIFICATE_STATUS_LABELS[certificateStatus(lead.certified, null)]}</td>
              <td className="px-4 py-3">
                <CallableText callable={lead.callable} />
              </td>
              <td className="px-4 py-3">{formatUsd(lead.priceCents)}</td>
            </tr>
          ))}
        </Table>
      )}

      {leads.data && <Pager label="Lead pages" page={page} pageCount={leads.data.pageCount} onPage={goTo} />}

      <Dialog
        open={purchase !== null}
        onOpenChange={(open) => !open && setPurchase(null)}
        title="Pay for your leads"
        description={
          purchase &&
          `${purchase.count} leads are held for you for ${countOf(RESERVATION_MINUTES, "minute")}. Total ${formatUsd(purchase.amountCents + (purchase.balanceAppliedCents ?? 0))}.`
        }
      >
        {purchase && (purchase.balanceAppliedCents ?? 0) > 0 && (
          <dl className="mb-4 space-y-1 rounded-lg bg-brand-50 px-4 py-3 text-sm" data-testid="balance-applied">
            <div className="flex justify-between gap-4">
              <dt>Balance applied</dt>
              <dd className="font-semibold">−{formatUsd(purchase.balanceAppliedCents ?? 0)}</dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt>To pay by card</dt>
              <dd className="font-semibold">{formatUsd(purchase.amountCents)}</dd>
            </div>
          </dl>
        )}
        {purchase && (
          <PaymentCard
            payment={purchase}
            submitLabel={`Complete Payment - ${formatUsd(purchase.amountCents)}`}
            outcome={{
              returnUrl: dashboardPath("my-leads"),
              successDescription: `Successfully purchased ${purchase.count} leads`,
              onPaid: () => purchased(purchase),
            }}
          />
        )}
      </Dialog>
    </section>
  );
}

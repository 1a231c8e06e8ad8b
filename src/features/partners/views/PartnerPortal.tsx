/**
 * /partner: a partner's portal. Today's calls against the daily cap, billable
 * rate and average duration; API keys (created and shown once, revoked); their transfers; payouts.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatDateTime, formatDay, formatUsd } from "../../../domain/format";
import { AppProviders } from "../../../islands/AppProviders";
import { QueryProvider } from "../../../islands/QueryProvider";
import { type Answer, api, call, errorMessage } from "../../../lib/api";
import { clearUserStores, LOGOUT_URL } from "../../../lib/stores";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Dialog } from "../../../ui/dialog";
import { Form } from "../../../ui/form";
import { Field } from "../../../ui/input";
import { QueryView } from "../../../ui/query-view";
import { Spinner } from "../../../ui/spinner";
import { buttonClass } from "../../../ui/styles";
import { Table } from "../../../ui/table";
import { toast } from "../../../ui/toast";
import { TRANSFER_BUFFER_SECONDS } from "../../transfers/index";
import { SuspendedNotice } from "./SuspendedNotice";

const day = formatDay;
const duration = (seconds: number | null) =>
  seconds === null ? "—" : `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;

type ApiKey = Answer<typeof api.partner.keys.$get>[number];
type TransferPage = Answer<typeof api.partner.transfers.$get>;

const PROFILE_QUERY = { queryKey: ["/api/partner/profile"], queryFn: () => call(api.partner.profile.$get()) };
const KEYS_KEY = ["/api/partner/keys"];

function Figures() {
  const profile = useQuery(PROFILE_QUERY);
  const stats = useQuery({
    queryKey: ["/api/partner/stats"],
    queryFn: () => call(api.partner.stats.$get()),
    refetchInterval: () => 30_000,
  });
  if (stats.isError || profile.isError) return <p className="text-ink-soft">Figures could not be loaded.</p>;
  // While they load, the cards are there with a placeholder: the page's HTML has them, and nothing below moves.
  const loaded = profile.data ? stats.data : undefined;
  const figures = [
    ["Calls today", loaded ? `${loaded.today.calls} / ${loaded.today.dailyCallCap}` : "…", "calls-today"],
    [
      "Billable rate",
      !loaded ? "…" : loaded.billableRate === null ? "—" : `${Math.round(loaded.billableRate * 100)}%`,
      "billable-rate",
    ],
    ["Average duration", loaded ? duration(loaded.averageDurationSeconds) : "…", "average-duration"],
    ["Pay per billable transfer", profile.data ? formatUsd(profile.data.payPerTransferCents) : "…", "pay-per-transfer"],
  ];
  const refusals = loaded?.today.refusals;
  return (
    <>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-busy={!loaded || undefined}>
        {figures.map(([label, value, id]) => (
          <Card key={id}>
            <dt className="text-sm text-ink-soft">{label}</dt>
            <dd className="mt-1 text-2xl font-bold" data-testid={id}>
              {value}
            </dd>
          </Card>
        ))}
      </dl>
      <p className="mt-3 text-sm text-ink-soft" data-testid="refusals-today">
        Pings refused today: {refusals ? refusals.refused : "…"}
        {refusals
          ? ` — ${refusals.callingWindow} outside the prospect's legal calling hours, ${refusals.callLimit} over their state's calls in 24 hours, ${refusals.suppressed} on a Do Not Call list.`
          : ""}
      </p>
    </>
  );
}

function ApiKeys() {
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: KEYS_KEY, queryFn: () => call(api.partner.keys.$get()) });
  const [name, setName] = useState("");
  const [shown, setShown] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEYS_KEY });
  const create = useMutation({
    mutationFn: () => call(api.partner.keys.$post({ json: { name } })),
    onSuccess: async ({ key }) => {
      setShown(key);
      setName("");
      await refresh();
    },
    onError: (error) =>
      toast({
        title: "Key not created",
        description: errorMessage(error, "Please try again."),
        variant: "destructive",
      }),
  });
  const revoke = useMutation({
    mutationFn: (key: ApiKey) => call(api.partner.keys[":id"].$delete({ param: { id: encodeURIComponent(key.id) } })),
    onSuccess: async () => {
      setRevoking(null);
      await refresh();
      toast({ title: "Key revoked", description: "Requests with it now answer 401.", variant: "success" });
    },
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to revoke the key"), variant: "destructive" }),
  });
  return (
    <section aria-labelledby="keys-heading" className="space-y-4">
      <h2 id="keys-heading" className="text-xl font-bold">
        API keys
      </h2>
      <p className="text-sm text-ink-soft">
        Your dialer sends a key as <code>Authorization: Bearer …</code> to the{" "}
        <a href="/api/v1/docs" className="font-medium text-brand-700 hover:underline">
          partner API
        </a>
        . A key is shown once, when you create it.
      </p>
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate();
        }}
        className="flex flex-wrap items-end gap-3"
      >
        <div className="min-w-56 flex-1">
          <Field label="Key name" value={name} onChange={(event) => setName(event.target.value)} placeholder="Dialer" />
        </div>
        <Button type="submit" busy={create.isPending}>
          Create key
        </Button>
      </Form>
      {shown && (
        <div className="rounded-xl border border-amber-300 bg-amber-50 p-4" role="status">
          <p className="font-semibold">Copy your new key now: it will not be shown again.</p>
          <code className="mt-2 block break-all rounded bg-white p-2 text-sm" data-testid="new-api-key">
            {shown}
          </code>
          <div className="mt-3 flex gap-2">
            <Button
              variant="secondary"
              onClick={() =>
                navigator.clipboard
                  ?.writeText(shown)
                  .then(() =>
                    toast({ title: "Copied", description: "The key is on your clipboard.", variant: "success" }),
                  )
              }
            >
              Copy
            </Button>
            <Button variant="ghost" onClick={() => setShown(null)}>
              I have saved it
            </Button>
          </div>
        </div>
      )}
      <QueryView query={keys} loading="Loading keys..." failed="Keys could not be loaded." empty="No API keys yet.">
        {(list) => (
          <Table headers={["Name", "Key", "Created", "Last used", "Status", ""]}>
            {list.map((key) => (
              <tr key={key.id} className="border-t border-line">
                <td className="px-4 py-3 font-medium">{key.name}</td>
                <td className="px-4 py-3 font-mono text-xs">{key.prefix}…</td>
                <td className="px-4 py-3">{formatDateTime(key.createdAt)}</td>
                <td className="px-4 py-3">{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : "Never"}</td>
                <td className="px-4 py-3">{key.revokedAt ? "Revoked" : "Active"}</td>
                <td className="px-4 py-3">
                  {!key.revokedAt && (
                    <Button variant="ghost" onClick={() => setRevoking(key)}>
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
      <Dialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revoke this key?"
        description={revoking ? `${revoking.name} (${revoking.prefix}…): dialers using it stop working at once.` : ""}
      >
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setRevoking(null)}>
            Keep it
          </Button>
          <Button variant="danger" busy={revoke.isPending} onClick={() => revoking && revoke.mutate(revoking)}>
            Revoke key
          </Button>
        </div>
      </Dialog>
    </section>
  );
}

/** The oldest transfer's time, where the next (older) page starts; undefined when there is none. */
const olderThan = (page: TransferPage) => {
  const oldest = page.at(-1);
  return oldest ? new Date(oldest.routedAt).getTime() : undefined;
};

function Transfers() {
  const first = useQuery({
    queryKey: ["/api/partner/transfers"],
    queryFn: () => call(api.partner.transfers.$get({ query: {} })),
  });
  const [older, setOlder] = useState<TransferPage[]>([]);
  const loadOlder = useMutation({
    mutationFn: (before: number) => call(api.partner.transfers.$get({ query: { before: String(before) } })),
    onSuccess: (page) => setOlder((pages) => [...pages, page]),
  });
  const lastPage = older.at(-1) ?? first.data ?? [];
  const nextBefore = olderThan(lastPage);
  const pages = {
    isPending: first.isPending,
    isError: first.isError,
    hasNextPage: nextBefore !== undefined,
    isFetchingNextPage: loadOlder.isPending,
    fetchNextPage: () => nextBefore !== undefined && loadOlder.mutate(nextBefore),
    data: { pages: [first.data ?? [], ...older] },
  };
  const list = pages.data.pages.flat();
  return (
    <section aria-labelledby="transfers-heading" className="space-y-4">
      <h2 id="transfers-heading" className="text-xl font-bold">
        Your transfers
      </h2>
      <p className="text-sm text-ink-soft">
        A completed transfer is billable when the caller stayed longer than {TRANSFER_BUFFER_SECONDS} seconds.
      </p>
      {pages.isPending ? (
        <Spinner label="Loading transfers..." />
      ) : pages.isError ? (
        <p className="text-ink-soft">Transfers could not be loaded.</p>
      ) : list.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line py-12 text-center text-ink-soft">No transfers yet.</p>
      ) : (
        <>
          <Table headers={["Time", "State", "Duration", "Billable", "Outcome"]}>
            {list.map((transfer) => (
              <tr key={transfer.transferId} className="border-t border-line">
                <td className="px-4 py-3">{formatDateTime(new Date(transfer.routedAt))}</td>
                <td className="px-4 py-3">{transfer.state}</td>
                <td className="px-4 py-3">{duration(transfer.durationSeconds)}</td>
                <td className="px-4 py-3">{transfer.billable ? "Yes" : "No"}</td>
                <td className="px-4 py-3">{transfer.outcome}</td>
              </tr>
            ))}
          </Table>
          {pages.hasNextPage && pages.data.pages.at(-1)?.length ? (
            <Button variant="secondary" busy={pages.isFetchingNextPage} onClick={() => pages.fetchNextPage()}>
              Load older transfers
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}

function Payouts() {
  const payouts = useQuery({ queryKey: ["/api/partner/payouts"], queryFn: () => call(api.partner.payouts.$get()) });
  const profile = useQuery(PROFILE_QUERY);
  return (
    <section aria-labelledby="payouts-heading" className="space-y-4">
      <h2 id="payouts-heading" className="text-xl font-bold">
        Payout statement
      </h2>
      {profile.data && (
        <p className="text-sm text-ink-soft">
          Billable transfers × {formatUsd(profile.data.payPerTransferCents)}, paid {profile.data.paymentTerms} after
          each weekly period (Monday to Sunday).
        </p>
      )}
      <QueryView
        query={payouts}
        loading="Loading payouts..."
        failed="Payouts could not be loaded."
        empty="No billable transfers yet."
      >
        {(lines) => (
          <Table headers={["Period", "Billable transfers", "Amount", "Due"]}>
            {lines.map((line) => (
              <tr key={line.start} className="border-t border-line">
                <td className="px-4 py-3">
                  {day(line.start)} – {day(line.end)}
                </td>
                <td className="px-4 py-3">{line.billableTransfers}</td>
                <td className="px-4 py-3 font-semibold">{formatUsd(line.amountCents)}</td>
                <td className="px-4 py-3">{day(line.due)}</td>
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
    </section>
  );
}

function Portal() {
  const profile = useQuery(PROFILE_QUERY);
  return (
    <div className="mx-auto max-w-6xl space-y-10 px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Partner Portal</h1>
          {profile.data && <p className="text-ink-soft">{profile.data.businessName}</p>}
        </div>
        <a href={LOGOUT_URL} className={buttonClass("secondary")} onClick={clearUserStores}>
          Logout
        </a>
      </div>
      {profile.data?.suspendedAt && <SuspendedNotice since={profile.data.suspendedAt} />}
      {profile.data?.requireTrustedForm && (
        <p className="rounded-xl border border-line bg-white p-4 text-sm" data-testid="trusted-form-required">
          Every ping must carry a TrustedForm certificate (<code>consent.trustedFormUrl</code>): the shop answers 400 to
          a ping without one.
        </p>
      )}
      <Figures />
      <ApiKeys />
      <Transfers />
      <Payouts />
    </div>
  );
}

export default function PartnerPortal() {
  return (
    <QueryProvider>
      <AppProviders>
        <Portal />
      </AppProviders>
    </QueryProvider>
  );
}

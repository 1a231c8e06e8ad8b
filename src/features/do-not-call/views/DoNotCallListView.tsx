/**
 * My Account → My Do Not Call list: a buyer uploads their own private list (their
 * customers, their internal Do Not Call list). It applies to this buyer only: its leads are left out of
 * the buyer's orders when paid and not charged (never hidden before payment: docs/decisions/0049), its
 * callers are not routed to the buyer; other buyers and the shop's lists are unaffected.
 */

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { formatCount } from "../../../domain/format";
import { api, call } from "../../../lib/api";
import { Card } from "../../../ui/card";
import { RetryNotice } from "../../../ui/retry";
import { Spinner } from "../../../ui/spinner";
import { SuppressionUploader } from "./SuppressionUploader";

const LIST_URL = "/api/my-suppression-list";
const n = formatCount;

export function DoNotCallListView() {
  const queryClient = useQueryClient();
  const mine = useQuery({ queryKey: [LIST_URL], queryFn: () => call(api["my-suppression-list"].$get()) });
  const list = mine.data?.list ?? null;
  return (
    <section aria-labelledby="my-dnc-title" className="space-y-5">
      <div>
        <h2 id="my-dnc-title" className="text-2xl font-bold">
          My Do Not Call list
        </h2>
        <p className="mt-1 text-ink-soft">
          Numbers you must not be sold or sent: your customers, your own Do Not Call list. Leads with these numbers are
          left out of your orders when you pay, and not charged; callers with them are never routed to you. Nobody else
          is affected, and nobody else sees your list.
        </p>
      </div>
      <Card className="space-y-4">
        {mine.isPending ? (
          <Spinner label="Loading your list..." />
        ) : mine.isError ? (
          <RetryNotice message="Your list could not be loaded." onRetry={() => void mine.refetch()} />
        ) : list ? (
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3" data-testid="my-dnc-summary">
            <div>
              <dt className="text-ink-soft">List</dt>
              <dd className="font-semibold">{list.name}</dd>
            </div>
            <div>
              <dt className="text-ink-soft">Numbers</dt>
              <dd className="font-semibold">{n(list.numbers)}</dd>
            </div>
            <div>
              <dt className="text-ink-soft">Last updated</dt>
              <dd className="font-semibold">{list.refreshedOn ?? "—"}</dd>
            </div>
          </dl>
        ) : (
          <p className="text-ink-soft">You have no list yet. Upload one below.</p>
        )}
      </Card>
      <Card className="space-y-4">
        <h3 className="text-lg font-bold">{list ? "Update your list" : "Upload your list"}</h3>
        <SuppressionUploader
          scope="buyer"
          defaultName={list?.name ?? "My Do Not Call list"}
          onDone={() => void queryClient.invalidateQueries({ queryKey: [LIST_URL] })}
        />
      </Card>
    </section>
  );
}

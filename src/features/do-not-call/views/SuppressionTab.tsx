/**
 * The admin's Do Not Call tab: every shared suppression list with its size and its
 * refreshed-on day, flagged once older than 31 days (sellers re-scrub at least every 31 days), and the
 * upload of a new list or a fresh copy of one, with its progress and report. Loads when first opened.
 */

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { formatCount } from "../../../domain/format";
import { api, call } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { RetryNotice } from "../../../ui/retry";
import { Spinner } from "../../../ui/spinner";
import { Table } from "../../../ui/table";
import type { SuppressionListView } from "../schemas/suppression";
import { SUPPRESSION_LIST_KIND_LABELS, staleListMessage } from "../suppression";
import type { SuppressionFileKind } from "../suppression-file";
import { SuppressionUploader } from "./SuppressionUploader";

/** The whole-registry loader is its own chunk, fetched when the admin opens it (docs/decisions/0083). */
const RegistryUploader = lazy(() => import("./RegistryUploader"));

const LISTS_URL = "/api/admin/suppression-lists";
const n = formatCount;
const CONTENTS: Record<SuppressionFileKind, string> = {
  full: "full list",
  additions: "additions",
  deletions: "deletions",
  changes: "change list",
};

function Freshness({ list }: { list: SuppressionListView }) {
  if (list.kind === "internal_dnc") return <span className="text-ink-soft">Live: requests apply at once</span>;
  if (list.stale) {
    return (
      <span className="font-medium text-red-800" data-testid="stale-list">
        <span className="mr-1.5 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">Stale</span>
        {list.refreshedOn ? staleListMessage(list.refreshedOn) : "Never refreshed. Upload a fresh copy."}
      </span>
    );
  }
  return <span className="text-ink-soft">Fresh until {list.freshUntil}</span>;
}

function LastUpload({ list }: { list: SuppressionListView }) {
  const upload = list.lastUpload;
  if (!upload) return <span className="text-ink-soft">—</span>;
  const what = `${upload.fileName} (${CONTENTS[upload.contents]})`;
  if (upload.status === "failed")
    return (
      <span className="text-red-800">
        {what}: failed. {upload.error}
      </span>
    );
  if (upload.status !== "done")
    return (
      <span>
        {what}: {upload.status}…
      </span>
    );
  return (
    <span>
      {what}: +{n(upload.numbersAdded)} / −{n(upload.numbersRemoved)}
    </span>
  );
}

/** The National Registry or a state's list as the FTC's area-code files, loaded into the registry's bits. */
function RegistryCard() {
  const [open, setOpen] = useState(false);
  return (
    <Card className="space-y-4">
      <div>
        <h3 className="text-lg font-bold">Load a whole registry</h3>
        <p className="text-sm text-ink-soft">
          The National Do Not Call Registry (or a state&apos;s list) as delivered: one file per area code, full lists
          and change lists, sent in parts and applied area code by area code. A refused file keeps its area code&apos;s
          numbers as they were.
        </p>
      </div>
      {open ? (
        <Suspense fallback={<Spinner label="Loading the registry loader..." />}>
          <RegistryUploader />
        </Suspense>
      ) : (
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Load a registry
        </Button>
      )}
    </Card>
  );
}

export default function SuppressionTab() {
  const queryClient = useQueryClient();
  const lists = useQuery({ queryKey: [LISTS_URL], queryFn: () => call(api.admin["suppression-lists"].$get()) });
  const stale = lists.data?.lists.filter((list) => list.stale) ?? [];
  return (
    <div className="space-y-6">
      <Card className="space-y-4">
        <div>
          <h2 className="text-lg font-bold">Do Not Call lists</h2>
          <p className="text-sm text-ink-soft">
            A number on any of these lists is never listed, sold or routed. Each sale and transfer records the lists it
            was checked against. Re-upload a list at least every 31 days.
          </p>
        </div>
        {stale.length > 0 && (
          <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-900">
            {stale.length === 1 ? "1 list is" : `${stale.length} lists are`} older than 31 days: upload a fresh copy.
          </p>
        )}
        {lists.isPending ? (
          <Spinner label="Loading the lists..." />
        ) : lists.isError || !lists.data ? (
          <RetryNotice message="The lists could not be loaded." onRetry={() => void lists.refetch()} />
        ) : (
          <Table
            label="Do Not Call lists"
            headers={["List", "Kind", "Numbers", "Refreshed on", "Freshness", "Last upload"]}
          >
            {lists.data.lists.map((list) => (
              <tr key={list.id} className="border-t border-line" data-testid={`suppression-list-${list.id}`}>
                <td className="px-4 py-3 font-medium">{list.name}</td>
                <td className="px-4 py-3">{SUPPRESSION_LIST_KIND_LABELS[list.kind]}</td>
                <td className="px-4 py-3">{n(list.numbers)}</td>
                <td className="px-4 py-3">{list.refreshedOn ?? "—"}</td>
                <td className="px-4 py-3 whitespace-normal">
                  <Freshness list={list} />
                </td>
                <td className="px-4 py-3 whitespace-normal">
                  <LastUpload list={list} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Card>
      <Card className="space-y-4">
        <div>
          <h3 className="text-lg font-bold">Upload a list</h3>
          <p className="text-sm text-ink-soft">
            Litigator lists: the numbers of people known to sue over calls. A file is read in full before anything is
            sent; a file that is not a list of phone numbers changes nothing. The National Do Not Call Registry and the
            states' own lists load below, as whole registries.
          </p>
        </div>
        <SuppressionUploader
          scope="admin"
          lists={lists.data?.lists ?? []}
          onDone={() => void queryClient.invalidateQueries({ queryKey: [LISTS_URL] })}
        />
      </Card>
      <RegistryCard />
    </div>
  );
}

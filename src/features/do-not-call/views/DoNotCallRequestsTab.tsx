/**
 * The admin's Do Not Call Requests tab (docs/decisions/0055): every request made on /do-not-call, newest
 * first and paged, searched by number; a number still on the shop's own list can be removed with a reason,
 * which is logged (who, when, why) and frees its unsold leads unless another list holds it. Loads when
 * first opened.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { formatCount, formatDateTime } from "../../../domain/format";
import { ApiError, api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { useFocusOnChange } from "../../../ui/focus";
import { Form } from "../../../ui/form";
import { Field } from "../../../ui/input";
import { Pager } from "../../../ui/pager";
import { Spinner } from "../../../ui/spinner";
import { fieldErrorClass, inputClass, labelClass } from "../../../ui/styles";
import { Table } from "../../../ui/table";
import { toast } from "../../../ui/toast";
import {
  DO_NOT_CALL_REMOVAL_MESSAGES,
  type DoNotCallRequestView,
  formatPhoneKey,
  REMOVAL_REASON_MAX_LENGTH,
} from "../do-not-call-requests";

const REQUESTS_URL = "/api/admin/do-not-call-requests";
const when = formatDateTime;

function Status({ request }: { request: DoNotCallRequestView }) {
  if (request.removal) {
    return (
      <span className="whitespace-normal">
        Removed {when(request.removal.at)} by {request.removal.by ?? "a deleted account"}: {request.removal.reason}
      </span>
    );
  }
  return request.listed ? <span className="font-medium text-ink">On the list</span> : <span>Not listed</span>;
}

/** The removal of one number: its reason (required, logged), then the server's answer. */
function RemovalForm({ phone, onDone }: { phone: string; onDone: (message?: string) => void }) {
  const queryClient = useQueryClient();
  const reasonId = useId();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const heading = useFocusOnChange<HTMLHeadingElement>(phone);
  const remove = useMutation({
    mutationFn: (text: string) => call(api.admin["do-not-call-removals"].$post({ json: { phone, reason: text } })),
    onSuccess: async (answer) => {
      await queryClient.invalidateQueries({ queryKey: [REQUESTS_URL] });
      toast({ title: "Number removed", description: answer.message });
      onDone(answer.message);
    },
    onError: (failure) =>
      setError(
        failure instanceof ApiError
          ? (failure.fieldErrors.reason ?? failure.serverMessage)
          : "The number could not be removed. Try again.",
      ),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === "") return setError(DO_NOT_CALL_REMOVAL_MESSAGES.reason);
    setError(null);
    remove.mutate(reason);
  };
  return (
    <Card>
      <Form onSubmit={submit} className="space-y-4" aria-labelledby={`${reasonId}-title`}>
        <h3 id={`${reasonId}-title`} ref={heading} tabIndex={-1} className="text-lg font-semibold">
          Remove {formatPhoneKey(phone)} from the Do Not Call list
        </h3>
        <p className="text-sm text-ink-soft">
          Its unsold leads become for sale again unless another list holds the number. Your name, the time and the
          reason are logged.
        </p>
        <div>
          <label htmlFor={reasonId} className={labelClass}>
            Reason for removal
          </label>
          <textarea
            id={reasonId}
            className={inputClass}
            rows={3}
            maxLength={REMOVAL_REASON_MAX_LENGTH}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${reasonId}-error` : undefined}
          />
          {error && (
            <p id={`${reasonId}-error`} className={fieldErrorClass} role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="danger" busy={remove.status === "pending"}>
            Remove number
          </Button>
          <Button variant="secondary" onClick={() => onDone()}>
            Cancel
          </Button>
        </div>
      </Form>
    </Card>
  );
}

export default function DoNotCallRequestsTab() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const [phone, setPhone] = useState<string | undefined>(undefined);
  const [removing, setRemoving] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const query = { page: String(page), ...(phone ? { phone } : {}) };
  const requests = useQuery({
    queryKey: [REQUESTS_URL, query],
    queryFn: () => call(api.admin["do-not-call-requests"].$get({ query })),
  });
  const searchError =
    requests.isError && requests.error instanceof ApiError ? requests.error.fieldErrors.phone : undefined;

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setPage(1);
    setRemoving(null);
    setPhone(search.trim() || undefined);
  };

  return (
    <div className="space-y-6">
      <p className="text-ink-soft">
        Anyone may ask not to be called: each request is kept with its time, a fingerprint of the address it came from
        (a salted hash, never the address) and the browser. A burst of more than 100 numbers in an hour e-mails the
        admins.
      </p>
      <Form onSubmit={submitSearch} aria-label="Search requests by number" className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 sm:max-w-xs">
          <Field
            label="Phone number"
            type="tel"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            error={searchError}
          />
        </div>
        <Button type="submit">Search</Button>
        {phone && (
          <Button
            variant="secondary"
            onClick={() => {
              setSearch("");
              setPhone(undefined);
              setPage(1);
            }}
          >
            Show all
          </Button>
        )}
      </Form>
      <p role="status" className="text-sm text-ink-soft">
        {notice}
      </p>
      {removing && (
        <RemovalForm
          phone={removing}
          onDone={(message) => {
            setRemoving(null);
            if (message) setNotice(message);
          }}
        />
      )}
      {requests.isPending ? (
        <Spinner label="Loading requests..." />
      ) : requests.isError ? (
        !searchError && (
          <p className="text-ink-soft">
            {errorMessage(requests.error, "The requests could not be loaded. Reload the page to try again.")}
          </p>
        )
      ) : requests.data.requests.length === 0 ? (
        <p className="rounded-xl border border-dashed border-line py-12 text-center text-ink-soft">
          {phone ? "No requests for this number." : "No Do Not Call requests yet."}
        </p>
      ) : (
        <>
          <p className="text-sm text-ink-soft">
            {formatCount(requests.data.count)} request{requests.data.count === 1 ? "" : "s"}
          </p>
          <Table
            label="Do Not Call requests"
            headers={["Requested", "Phone", "Status", "E-mail", "Reason", "Address hash", "Browser", "Action"]}
          >
            {requests.data.requests.map((request) => (
              <tr key={request.id} className="border-t border-line align-top">
                <td className="px-4 py-3">{when(request.createdAt)}</td>
                <td className="px-4 py-3 font-medium">{formatPhoneKey(request.phone)}</td>
                <td className="max-w-xs px-4 py-3">
                  <Status request={request} />
                </td>
                <td className="px-4 py-3">{request.email ?? "—"}</td>
                <td className="max-w-xs truncate px-4 py-3" title={request.reason ?? undefined}>
                  {request.reason ?? "—"}
                </td>
                <td className="px-4 py-3 font-mono text-xs">{request.client ?? "—"}</td>
                <td className="max-w-[12rem] truncate px-4 py-3" title={request.userAgent ?? undefined}>
                  {request.userAgent ?? "—"}
                </td>
                <td className="px-4 py-3">
                  {request.listed && !request.removal ? (
                    <Button
                      variant="secondary"
                      onClick={() => {
                        setNotice("");
                        setRemoving(request.phone);
                      }}
                      aria-label={`Remove ${formatPhoneKey(request.phone)}`}
                    >
                      Remove
                    </Button>
                  ) : (
                    "—"
                  )}
                </td>
              </tr>
            ))}
          </Table>
          <Pager
            label="Request pages"
            page={requests.data.page}
            pageCount={Math.ceil(requests.data.count / requests.data.pageSize)}
            onPage={setPage}
          />
        </>
      )}
    </div>
  );
}

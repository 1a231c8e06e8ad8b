/** The aff-network tab (product rule 45): approved partners as summary cards, pending ones in full with review buttons. */

import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { formatDate } from "../../../domain/format";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Spinner } from "../../../ui/spinner";
import { toast } from "../../../ui/toast";
import type { ApplicationDecision } from "../partner";
import type { PartnerApplicationView } from "../schemas/partner";
import { PartnerAccounts } from "./PartnerAccounts";

function Detail({ label, value }: { label: string; value: string | number | null | undefined }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      {/* Anywhere: a long e-mail address wraps rather than widening the card past a phone's screen. */}
      <dd className="wrap-anywhere">{value || "—"}</dd>
    </>
  );
}

function PendingApplication({
  application,
  onReview,
  busy,
}: {
  application: PartnerApplicationView;
  onReview: (status: ApplicationDecision) => void;
  busy: boolean;
}) {
  const a = application;
  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h4 className="text-lg font-bold">{a.businessName}</h4>
          <p className="text-sm text-ink-soft">Applied {formatDate(a.createdAt)}</p>
        </div>
        <div className="flex gap-2">
          <Button onClick={() => onReview("approved")} disabled={busy}>
            Approve
          </Button>
          <Button variant="danger" onClick={() => onReview("rejected")} disabled={busy}>
            Reject
          </Button>
        </div>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
        <Detail label="Address" value={`${a.businessAddress}, ${a.city}, ${a.state} ${a.zip}`} />
        <Detail label="EIN" value={a.ein} />
        <Detail label="Contact" value={a.mainContact} />
        <Detail label="Phone" value={a.contactPhone} />
        <Detail label="E-mail" value={a.contactEmail} />
        <Detail label="Payment terms" value={a.paymentTerms} />
        <Detail label="Agents" value={a.numberOfAgents} />
        <Detail label="Office hours" value={`${a.officeHours} ${a.timeZone}`} />
        <Detail label="Pay per transfer" value={a.payPerTransfer} />
        <Detail label="DID number" value={a.didNumber} />
        <Detail label="Daily call cap" value={a.dailyCallCap} />
      </dl>
      <div>
        <h5 className="text-sm font-semibold">References</h5>
        <ul className="mt-1 text-sm text-ink-soft">
          {[1, 2].map((n) => {
            const company = a[`reference${n as 1 | 2}CompanyName`];
            if (!company) return null;
            return (
              <li key={n}>
                {company} — {a[`reference${n as 1 | 2}ContactName`] ?? "—"}, {a[`reference${n as 1 | 2}Phone`] ?? "—"}
              </li>
            );
          })}
          {!a.reference1CompanyName && !a.reference2CompanyName && <li>None given</li>}
        </ul>
      </div>
      <div>
        <h5 className="text-sm font-semibold">Documents</h5>
        {a.documents.length === 0 ? (
          <p className="text-sm text-ink-soft">None uploaded</p>
        ) : (
          <ul className="mt-1 space-y-1 text-sm">
            {a.documents.map((doc) => (
              <li key={doc.id} className="flex items-center justify-between gap-3">
                <span className="truncate">{doc.originalName}</span>
                <Button
                  variant="secondary"
                  onClick={() => window.open(`/api/download-document/${doc.id}`, "_blank", "noopener")}
                >
                  Download<span className="sr-only"> {doc.originalName}</span>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}

export function PartnersTab() {
  const applications = useQuery({
    queryKey: ["/api/affnetwork-signups"],
    queryFn: () => call(api["affnetwork-signups"].$get()),
  });
  const review = useMutation({
    mutationFn: ({ id, status }: { id: string; status: ApplicationDecision }) =>
      call(api["affnetwork-signups"][":id"].status.$patch({ param: { id: encodeURIComponent(id) }, json: { status } })),
    onSuccess: async () => {
      await applications.refetch();
      toast({ title: "Success", description: "Application status updated successfully", variant: "success" });
    },
    onError: (error) =>
      toast({
        title: "Error",
        description: errorMessage(error, "Failed to update application status"),
        variant: "destructive",
      }),
  });

  const resend = useMutation({
    mutationFn: (id: string) =>
      call(api["affnetwork-signups"][":id"].invitation.$post({ param: { id: encodeURIComponent(id) } })),
    onSuccess: () => toast({ title: "Success", description: "Invitation sent", variant: "success" }),
    onError: (error) =>
      toast({
        title: "Error",
        description: errorMessage(error, "Failed to send the invitation"),
        variant: "destructive",
      }),
  });

  useEffect(() => {
    if (applications.isError)
      toast({ title: "Error", description: "Failed to fetch affiliate network signups", variant: "destructive" });
  }, [applications.isError]);

  if (applications.isPending) return <Spinner label="Loading applications..." />;
  if (applications.isError)
    return <p className="text-ink-soft">Applications could not be loaded. Reload the page to try again.</p>;
  const approved = applications.data.filter((a) => a.status === "approved");
  const pending = applications.data.filter((a) => a.status === "pending");
  if (approved.length === 0 && pending.length === 0)
    return (
      <div className="space-y-8">
        <PartnerAccounts />
        <p className="py-10 text-center text-ink-soft">No partner applications yet.</p>
      </div>
    );

  return (
    <div className="space-y-8">
      <PartnerAccounts />
      <section aria-labelledby="approved-partners">
        <h3 id="approved-partners" className="text-xl font-bold">
          Approved partners ({approved.length})
        </h3>
        <ul className="mt-3 grid gap-4 md:grid-cols-2">
          {approved.map((a) => (
            <li key={a.id}>
              <Card>
                <h4 className="font-bold">{a.businessName}</h4>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <Detail label="Contact" value={`${a.mainContact} · ${a.contactPhone} · ${a.contactEmail}`} />
                  <Detail label="Location" value={`${a.city}, ${a.state}`} />
                  <Detail label="Agents" value={a.numberOfAgents} />
                  <Detail label="Daily cap" value={a.dailyCallCap} />
                  <Detail label="Approved" value={a.approvedAt ? formatDate(a.approvedAt) : null} />
                </dl>
                {a.invitationPending && (
                  <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
                    <span className="text-ink-soft">Has not accepted the invitation yet.</span>
                    <Button variant="secondary" busy={resend.isPending} onClick={() => resend.mutate(a.id)}>
                      Re-send invitation<span className="sr-only"> to {a.businessName}</span>
                    </Button>
                  </div>
                )}
              </Card>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="pending-partners">
        <h3 id="pending-partners" className="text-xl font-bold">
          Pending applications ({pending.length})
        </h3>
        <ul className="mt-3 space-y-4">
          {pending.map((a) => (
            <li key={a.id}>
              <PendingApplication
                application={a}
                busy={review.isPending}
                onReview={(status) => review.mutate({ id: a.id, status })}
              />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

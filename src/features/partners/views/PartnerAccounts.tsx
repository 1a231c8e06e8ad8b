/**
 * Stopping a partner from the admin area: every partner account, to suspend or
 * reinstate (its API keys answer 403 meanwhile) and to see and revoke its API keys. `PartnerKeyList` also follows an admin's
 * password reset of a partner, whose keys would otherwise keep working unseen.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate } from "../../../domain/format";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Dialog } from "../../../ui/dialog";
import { toast } from "../../../ui/toast";
import type { AdminPartnerView, ApiKeyView } from "../schemas/partner-account";
import { TrustedFormRule } from "./TrustedFormRule";

const PARTNERS_KEY = ["/api/admin/partners"];

const failed = (what: string) => (error: unknown) =>
  toast({ title: "Error", description: errorMessage(error, what), variant: "destructive" });

/** A partner's keys with a Revoke button on each active one; `keys` given, else read from the server. */
export function PartnerKeyList({ partnerId, keys }: { partnerId: string; keys?: ApiKeyView[] }) {
  const queryClient = useQueryClient();
  const [revoked, setRevoked] = useState<string[]>([]);
  const [revoking, setRevoking] = useState<string | null>(null);
  const listed = useQuery({
    queryKey: ["/api/admin/partners", partnerId, "keys"],
    queryFn: () => call(api.admin.partners[":id"].keys.$get({ param: { id: encodeURIComponent(partnerId) } })),
    enabled: keys === undefined,
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) => {
      setRevoking(keyId);
      return call(
        api.admin.partners[":id"].keys[":keyId"].$delete({
          param: { id: encodeURIComponent(partnerId), keyId: encodeURIComponent(keyId) },
        }),
      );
    },
    onSuccess: async (key) => {
      setRevoked((ids) => [...ids, key.id]);
      toast({ title: "Key revoked", description: `${key.name} now answers 401.`, variant: "success" });
      await queryClient.invalidateQueries({ queryKey: PARTNERS_KEY });
    },
    onError: failed("The key could not be revoked"),
  });
  const shown = (keys ?? listed.data ?? []).filter((key) => !key.revokedAt && !revoked.includes(key.id));
  if (keys === undefined && listed.isPending) return <p className="text-sm text-ink-soft">Loading keys…</p>;
  if (shown.length === 0) return <p className="text-sm text-ink-soft">No active API keys.</p>;
  return (
    <ul className="divide-y divide-line rounded-lg border border-line text-sm" aria-label="Active API keys">
      {shown.map((key) => (
        <li key={key.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
          <span>
            <span className="font-medium">{key.name}</span> <code className="text-xs text-ink-soft">{key.prefix}…</code>
            <span className="block text-xs text-ink-soft">
              Last used {key.lastUsedAt ? formatDate(key.lastUsedAt) : "never"}
            </span>
          </span>
          <Button variant="danger" busy={revoke.isPending && revoking === key.id} onClick={() => revoke.mutate(key.id)}>
            Revoke<span className="sr-only"> {key.name}</span>
          </Button>
        </li>
      ))}
    </ul>
  );
}

/** One partner account: its state, its keys, and the Suspend / Reinstate control. */
function PartnerAccount({ partner }: { partner: AdminPartnerView }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [showKeys, setShowKeys] = useState(false);
  const change = useMutation({
    mutationFn: (suspend: boolean) => {
      const param = { param: { id: encodeURIComponent(partner.id) } };
      return call(
        suspend ? api.admin.partners[":id"].suspend.$post(param) : api.admin.partners[":id"].reinstate.$post(param),
      );
    },
    onSuccess: async (updated: AdminPartnerView) => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: PARTNERS_KEY });
      toast({
        title: updated.suspendedAt ? "Partner suspended" : "Partner reinstated",
        description: updated.suspendedAt
          ? `${updated.businessName}'s API keys now answer 403.`
          : `${updated.businessName}'s API keys work again.`,
        variant: "success",
      });
    },
    onError: failed("The partner could not be changed"),
  });
  const suspended = partner.suspendedAt !== null;
  return (
    <Card className="space-y-3">
      <div>
        <h4 className="font-bold">{partner.businessName}</h4>
        <p className="text-sm text-ink-soft">@{partner.username}</p>
      </div>
      <p className="text-sm">
        {suspended ? (
          <strong className="text-red-800">Suspended since {formatDate(partner.suspendedAt ?? 0)}</strong>
        ) : (
          <strong>Active</strong>
        )}{" "}
        · {partner.activeKeys} active API {partner.activeKeys === 1 ? "key" : "keys"}
      </p>
      <TrustedFormRule partner={partner} queryKey={PARTNERS_KEY} />
      <div className="flex flex-wrap gap-2">
        {suspended ? (
          <Button variant="secondary" busy={change.isPending} onClick={() => change.mutate(false)}>
            Reinstate<span className="sr-only"> {partner.businessName}</span>
          </Button>
        ) : (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Suspend<span className="sr-only"> {partner.businessName}</span>
          </Button>
        )}
        <Button variant="secondary" onClick={() => setShowKeys(true)}>
          API keys<span className="sr-only"> of {partner.businessName}</span>
        </Button>
      </div>
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Suspend ${partner.businessName}?`}
        description="Every one of its API keys answers 403 until you reinstate it, so no calls are routed to it. Its portal says it is suspended."
      >
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button variant="danger" busy={change.isPending} onClick={() => change.mutate(true)}>
            Suspend partner
          </Button>
        </div>
      </Dialog>
      <Dialog open={showKeys} onOpenChange={setShowKeys} title={`${partner.businessName}: API keys`}>
        {showKeys && <PartnerKeyList partnerId={partner.id} />}
      </Dialog>
    </Card>
  );
}

/** Every partner account, to suspend, reinstate, or revoke keys of. */
export function PartnerAccounts() {
  const partners = useQuery({ queryKey: PARTNERS_KEY, queryFn: () => call(api.admin.partners.$get()) });
  return (
    <section aria-labelledby="partner-accounts" className="space-y-3">
      <h3 id="partner-accounts" className="text-xl font-bold">
        Partner accounts{partners.data ? ` (${partners.data.length})` : ""}
      </h3>
      {partners.isPending ? (
        <p className="text-sm text-ink-soft">Loading partner accounts…</p>
      ) : partners.isError ? (
        <p className="text-sm text-ink-soft">Partner accounts could not be loaded. Reload the page to try again.</p>
      ) : partners.data.length === 0 ? (
        <p className="text-sm text-ink-soft">No partner accounts yet: approving an application creates one.</p>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {partners.data.map((partner) => (
            <li key={partner.id}>
              <PartnerAccount partner={partner} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

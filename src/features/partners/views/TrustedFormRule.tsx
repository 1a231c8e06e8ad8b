/**
 * Whether a partner's pings must carry a TrustedForm certificate (decision 0041): an
 * admin's switch on the partner's card. From the partner's next ping on, one without
 * `consent.trustedFormUrl` answers 400.
 */

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, call, errorMessage } from "../../../lib/api";
import { toast } from "../../../ui/toast";
import type { AdminPartnerView } from "../schemas/partner-account";

export function TrustedFormRule({ partner, queryKey }: { partner: AdminPartnerView; queryKey: readonly unknown[] }) {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (required: boolean) =>
      call(
        api.admin.partners[":id"]["trusted-form"].$post({
          param: { id: encodeURIComponent(partner.id) },
          json: { required },
        }),
      ),
    onSuccess: async (updated: AdminPartnerView) => {
      await queryClient.invalidateQueries({ queryKey });
      toast({
        title: updated.requireTrustedForm ? "TrustedForm required" : "TrustedForm optional",
        description: updated.requireTrustedForm
          ? `${updated.businessName}'s pings without a TrustedForm certificate now answer 400.`
          : `${updated.businessName} may ping without a TrustedForm certificate again.`,
        variant: "success",
      });
    },
    onError: (error) =>
      toast({
        title: "Error",
        description: errorMessage(error, "The setting could not be changed"),
        variant: "destructive",
      }),
  });
  return (
    <label className="flex items-start gap-2 text-sm">
      <input
        type="checkbox"
        className="mt-0.5 h-4 w-4 accent-brand-600"
        checked={partner.requireTrustedForm}
        disabled={change.isPending}
        onChange={(e) => change.mutate(e.target.checked)}
      />
      <span>
        Require a TrustedForm certificate with every ping
        <span className="block text-xs text-ink-soft">Pings without consent.trustedFormUrl answer 400.</span>
      </span>
    </label>
  );
}

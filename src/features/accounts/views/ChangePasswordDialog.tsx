import { useMutation } from "@tanstack/react-query";
import { type ComponentType, Suspense, useState } from "react";
import { useForm } from "react-hook-form";
import { displayName, type PublicUser } from "../../../domain/user";
import { type Answer, api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Dialog } from "../../../ui/dialog";
import { Form, fieldProps, lazyZodResolver } from "../../../ui/form";
import { Field } from "../../../ui/input";
import { Spinner } from "../../../ui/spinner";
import { toast } from "../../../ui/toast";
import type { NewPasswordForm } from "../schemas/auth";
import { NewPasswordFields } from "./NewPasswordFields";

type PartnerKeys = Answer<(typeof api.users)[":userId"]["change-password"]["$post"]>["partnerKeys"];

/** The list of a partner's active API keys, with their revoke buttons (the partners feature's view). */
export type PartnerKeyListView = ComponentType<NonNullable<PartnerKeys>>;

interface ChangePasswordProps {
  user: PublicUser | null;
  /** The signed-in admin's own account: they confirm with their current password (the server insists too). */
  ownAccount: boolean;
  onClose: () => void;
  /** Shown after a partner's password is reset; given by the page, which assembles accounts and partners. */
  partnerKeyList: PartnerKeyListView;
}

export function ChangePasswordDialog({
  user,
  ownAccount,
  onClose,
  partnerKeyList: PartnerKeyList,
}: ChangePasswordProps) {
  const form = useForm<NewPasswordForm>({
    resolver: lazyZodResolver(() => import("../schemas/auth").then((m) => m.newPasswordFormSchema)),
    defaultValues: { password: "", confirmPassword: "", currentPassword: "" },
  });
  // A partner's API keys outlive its password: after the reset, the admin sees the active ones to revoke.
  const [partnerKeys, setPartnerKeys] = useState<PartnerKeys>();
  const change = useMutation({
    mutationFn: ({ password, currentPassword }: NewPasswordForm) =>
      call(
        api.users[":userId"]["change-password"].$post({
          param: { userId: encodeURIComponent(user?.id ?? "") },
          json: { newPassword: password, ...(ownAccount ? { currentPassword } : {}) },
        }),
      ),
    onSuccess: (answer) => {
      toast({ title: "Success", description: "Password changed successfully", variant: "success" });
      if (answer.partnerKeys?.keys.length) setPartnerKeys(answer.partnerKeys);
      else close();
    },
    onError: (error) =>
      toast({ title: "Error", description: errorMessage(error, "Failed to change password"), variant: "destructive" }),
  });

  function close() {
    setPartnerKeys(undefined);
    form.reset();
    change.reset();
    onClose();
  }

  return (
    <Dialog
      open={user !== null}
      onOpenChange={(open) => !open && close()}
      title="Change Password"
      description={
        user && (
          <>
            Set a new password for <strong className="text-ink">{displayName(user)}</strong> (@{user.username}). Their
            open sessions end.
          </>
        )
      }
    >
      {partnerKeys ? (
        <div className="space-y-4">
          <p className="text-sm">
            The password is changed, but this partner's API keys still work. Revoke every key that someone else may
            know; the partner can create new ones in its portal.
          </p>
          <Suspense fallback={<Spinner label="Loading API keys..." />}>
            <PartnerKeyList partnerId={partnerKeys.partnerId} keys={partnerKeys.keys} />
          </Suspense>
          <div className="flex justify-end">
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : (
        <Form onSubmit={form.handleSubmit((values) => change.mutate(values))} className="space-y-4">
          {ownAccount && (
            <Field
              label="Current Password"
              type="password"
              autoComplete="current-password"
              {...fieldProps(form, "currentPassword")}
            />
          )}
          <NewPasswordFields
            password={fieldProps(form, "password")}
            confirmPassword={fieldProps(form, "confirmPassword")}
          />
          <div className="flex justify-end gap-3 pt-2">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" busy={change.isPending}>
              {change.isPending ? "Changing..." : "Change"}
            </Button>
          </div>
        </Form>
      )}
    </Dialog>
  );
}

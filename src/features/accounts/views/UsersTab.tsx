import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { formatDate } from "../../../domain/format";
import { displayName, type PublicUser } from "../../../domain/user";
import { api, call } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Spinner } from "../../../ui/spinner";
import { toast } from "../../../ui/toast";
import type { PartnerKeyListView } from "./ChangePasswordDialog";

/** The dialog and its form load when an admin first opens it (decision 0032). */
const ChangePasswordDialog = lazy(() =>
  import("./ChangePasswordDialog").then((m) => ({ default: m.ChangePasswordDialog })),
);

/**
 * `currentUserId`: the signed-in admin (changing their own password asks for the current one);
 * `partnerKeyList`: the partners' key list the dialog shows after a partner's password is reset.
 */
export function UsersTab({
  currentUserId,
  partnerKeyList,
}: {
  currentUserId: string;
  partnerKeyList: PartnerKeyListView;
}) {
  const users = useQuery({ queryKey: ["/api/users"], queryFn: () => call(api.users.$get()) });
  const [editing, setEditing] = useState<PublicUser | null>(null);
  const [dialogUsed, setDialogUsed] = useState(false);
  if (editing && !dialogUsed) setDialogUsed(true);

  useEffect(() => {
    if (users.isError) toast({ title: "Error", description: "Failed to fetch users", variant: "destructive" });
  }, [users.isError]);

  if (users.isPending) return <Spinner label="Loading users..." />;
  if (users.isError) return <p className="text-ink-soft">Users could not be loaded. Reload the page to try again.</p>;
  if (users.data.length === 0) return <p className="py-10 text-center text-ink-soft">No users found</p>;

  return (
    <>
      <ul className="grid gap-4 md:grid-cols-2" aria-label="Users">
        {users.data.map((user) => (
          <li key={user.id}>
            <Card className="flex h-full flex-col gap-3">
              <div className="flex items-start justify-between gap-3">
                {/* A long name or username wraps rather than widening the card past a phone's screen. */}
                <div className="min-w-0">
                  <p className="font-semibold text-ink wrap-anywhere">
                    {displayName(user)}
                    {user.isAdmin && (
                      <span className="ml-2 rounded-full bg-navy-800 px-2 py-0.5 align-middle text-xs font-semibold text-white">
                        Admin
                      </span>
                    )}
                  </p>
                  <p className="text-sm break-all text-ink-soft">@{user.username}</p>
                </div>
                <Button variant="secondary" onClick={() => setEditing(user)}>
                  Change Password
                </Button>
              </div>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="text-muted">E-mail</dt>
                <dd className="break-all">{user.email}</dd>
                <dt className="text-muted">Phone</dt>
                <dd>{user.phone || "—"}</dd>
                <dt className="text-muted">Agency</dt>
                <dd>{user.agencyName || "—"}</dd>
                <dt className="text-muted">Role</dt>
                <dd>{user.role}</dd>
                <dt className="text-muted">Created</dt>
                <dd>{formatDate(user.createdAt)}</dd>
              </dl>
            </Card>
          </li>
        ))}
      </ul>
      {dialogUsed && (
        <Suspense>
          <ChangePasswordDialog
            user={editing}
            ownAccount={editing?.id === currentUserId}
            onClose={() => setEditing(null)}
            partnerKeyList={partnerKeyList}
          />
        </Suspense>
      )}
    </>
  );
}

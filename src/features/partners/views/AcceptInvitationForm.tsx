/** /partner-invitation: an approved partner opens the e-mailed link, chooses a password and lands in /partner. */

import { useMutation, useQuery } from "@tanstack/react-query";
import { AppProviders } from "../../../islands/AppProviders";
import { QueryProvider } from "../../../islands/QueryProvider";
import { api, call, errorMessage } from "../../../lib/api";
import { $user } from "../../../lib/stores";
import { Button } from "../../../ui/button";
import { Form } from "../../../ui/form";
import { useSchemaForm } from "../../../ui/schema-form";
import { Spinner } from "../../../ui/spinner";
import { toast } from "../../../ui/toast";
import type { NewPasswordForm } from "../../accounts/index";
import { NewPasswordFields } from "../../accounts/views/index";
import { INVITATION_INVALID, INVITATION_TTL_HOURS } from "../partner";

function InvalidInvitation() {
  return (
    <div className="text-center" role="alert">
      <h2 className="text-2xl font-bold">Invitation expired</h2>
      <p className="mt-3 text-ink-soft">
        {INVITATION_INVALID}. Invitation links work once, for {INVITATION_TTL_HOURS} hours. Ask us for a new one, or use
        "Forgot your password?" on the login page if you already set one.
      </p>
    </div>
  );
}

/** The link's token (`?token=`), read from the URL by the server that renders the page. */
interface LinkProps {
  token: string;
}

function AcceptInvitation({ token }: LinkProps) {
  const check = useQuery({
    queryKey: ["/api/partner-invitation/check", token],
    queryFn: () => call(api["partner-invitation"].check.$post({ json: { token } })),
    enabled: token !== "",
  });
  // Plain state checked by the API's own schema, which loads with the first submit (decisions 0016, 0074).
  const form = useSchemaForm({
    initial: () => ({ password: "", confirmPassword: "" }),
    fields: ["password", "confirmPassword"],
    load: () => import("../../accounts/index").then((m) => m.newPasswordFormSchema),
  });
  const accept = useMutation({
    mutationFn: ({ password }: NewPasswordForm) =>
      call(api["partner-invitation"].accept.$post({ json: { token, password } })),
    onSuccess: (user) => {
      $user.set(user);
      window.location.assign("/partner");
    },
    onError: (error) =>
      toast({
        title: "Could not set your password",
        description: errorMessage(error, INVITATION_INVALID),
        variant: "destructive",
      }),
  });

  if (!token || check.isError || check.data?.valid === false) return <InvalidInvitation />;
  if (!check.data) return <Spinner label="Checking your invitation..." />;

  return (
    <Form onSubmit={form.submit((values) => accept.mutate(values))} className="space-y-5">
      <p className="text-ink-soft">
        Welcome, <strong className="text-ink">{check.data.businessName}</strong>. Your username is{" "}
        <strong className="text-ink" data-testid="partner-username">
          {check.data.username}
        </strong>
        . Choose a password to open your partner portal.
      </p>
      <NewPasswordFields password={form.field("password")} confirmPassword={form.field("confirmPassword")} />
      <Button type="submit" size="lg" className="w-full" busy={accept.isPending || accept.isSuccess}>
        {accept.isPending ? "Saving..." : "Set password and continue"}
      </Button>
    </Form>
  );
}

export default function AcceptInvitationForm(props: LinkProps) {
  return (
    <QueryProvider>
      <AppProviders>
        <AcceptInvitation {...props} />
      </AppProviders>
    </QueryProvider>
  );
}

/** /partner-invitation: an approved partner opens the e-mailed link, chooses a password and lands in /partner. */
import { useForm } from "react-hook-form";
import { AppProviders } from "../../../islands/AppProviders";
import { NewPasswordFields } from "../../../islands/auth/NewPasswordFields";
import { api, call, errorMessage } from "../../../lib/api";
import { useMutation, useQuery } from "../../../lib/query";
import { $user } from "../../../lib/stores";
import { Button } from "../../../ui/button";
import { Form, lazyZodResolver } from "../../../ui/form";
import { Spinner } from "../../../ui/spinner";
import { toast } from "../../../ui/toast";
import type { NewPasswordForm } from "../../accounts/index";
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
  const form = useForm<NewPasswordForm>({
    // The schema (and zod) load with the first validation (decision 0016).
    resolver: lazyZodResolver(() => import("../../accounts/index").then((m) => m.newPasswordFormSchema)),
    defaultValues: { password: "", confirmPassword: "" },
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
    <Form onSubmit={form.handleSubmit((values) => accept.mutate(values))} className="space-y-5">
      <p className="text-ink-soft">
        Welcome, <strong className="text-ink">{check.data.businessName}</strong>. Your username is{" "}
        <strong className="text-ink" data-testid="partner-username">
          {check.data.username}
        </strong>
        . Choose a password to open your partner portal.
      </p>
      <NewPasswordFields form={form} />
      <Button type="submit" size="lg" className="w-full" busy={accept.isPending || accept.isSuccess}>
        {accept.isPending ? "Saving..." : "Set password and continue"}
      </Button>
    </Form>
  );
}

export default function AcceptInvitationForm(props: LinkProps) {
  return (
    <AppProviders>
      <AcceptInvitation {...props} />
    </AppProviders>
  );
}

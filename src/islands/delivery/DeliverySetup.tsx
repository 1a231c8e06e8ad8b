/**
 * /delivery-setup: the buyer opens the e-mailed link, fills in where and when transfers go, and is signed
 * in (a buyer without an account chooses a username and password here), so the order shows in My Orders.
 */

import { useState } from "react";
import { type DeliverySettingsValues, SETUP_LINK_INVALID, SETUP_LINK_TTL_DAYS } from "../../domain/delivery-setup";
import { ApiError, api, call, errorMessage } from "../../lib/api";
import { useMutation, useQuery } from "../../lib/query";
import { $user } from "../../lib/stores";
import { Field } from "../../ui/input";
import { Spinner } from "../../ui/spinner";
import { buttonClass } from "../../ui/styles";
import { toast } from "../../ui/toast";
import { AppProviders } from "../AppProviders";
import { DeliverySettingsForm } from "./DeliverySettingsForm";

type AccountErrors = { username?: string | undefined; password?: string | undefined };
/** The new account's rules, loaded with the first save (zod stays out of the page's first load, decision 0016). */
const accountSchema = () =>
  import("../../domain/schemas/delivery-setup").then((m) => m.deliverySetupSchema.shape.account.unwrap());

function InvalidLink() {
  return (
    <div className="text-center" role="alert">
      <h2 className="text-2xl font-bold">Link expired</h2>
      <p className="mt-3 text-ink-soft">
        {SETUP_LINK_INVALID}. Setup links work once, for {SETUP_LINK_TTL_DAYS} days. Log in to see your orders, or
        contact us and we will set up your deliveries.
      </p>
      <a href="/login" className={buttonClass("primary", "md", "mt-6")}>
        Go to Login
      </a>
    </div>
  );
}

/** The link's token (`?token=`), read from the URL by the server that renders the page. */
interface LinkProps {
  token: string;
}

function Setup({ token }: LinkProps) {
  const [account, setAccount] = useState({ username: "", password: "" });
  const [accountErrors, setAccountErrors] = useState<AccountErrors>({});
  const check = useQuery({
    queryKey: ["/api/delivery-setup/check", token],
    queryFn: () => call(api["delivery-setup"].check.$post({ json: { token } })),
    enabled: token !== "",
  });
  const save = useMutation({
    mutationFn: (body: { settings: DeliverySettingsValues; account?: typeof account }) =>
      call(api["delivery-setup"].$post({ json: { token, ...body } })),
    onSuccess: ({ user }) => $user.set(user),
    onError: (error) => {
      if (error instanceof ApiError) {
        setAccountErrors({
          username: error.fieldErrors["account.username"],
          password: error.fieldErrors["account.password"],
        });
      }
      toast({ title: "Not saved", description: errorMessage(error, "Please try again."), variant: "destructive" });
    },
  });

  if (!token || check.isError || check.data?.valid === false) return <InvalidLink />;
  if (!check.data) return <Spinner label="Checking your link..." />;
  const link = check.data;

  if (save.isSuccess) {
    return (
      <div className="text-center" role="status">
        <h2 className="text-2xl font-bold">Deliveries are set up</h2>
        <p className="mt-3 text-ink-soft">
          Partners can now send your {link.transfers} live transfers. You are signed in as {save.data?.user.username}.
        </p>
        <a href="/dashboard" className={buttonClass("primary", "md", "mt-6")}>
          Go to My Orders
        </a>
      </div>
    );
  }

  const submit = async (settings: DeliverySettingsValues) => {
    if (link.username) return save.mutate({ settings });
    const parsed = (await accountSchema()).safeParse(account);
    if (!parsed.success) {
      const errors: AccountErrors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof AccountErrors;
        errors[field] ??= issue.message;
      }
      setAccountErrors(errors);
      return;
    }
    setAccountErrors({});
    save.mutate({ settings, account: parsed.data });
  };

  return (
    <div className="space-y-5">
      <p className="text-ink-soft">
        Order <span className="font-mono">{link.orderId.slice(0, 8)}</span>: {link.transfers} live transfers for{" "}
        {link.email}.{" "}
        {link.username
          ? `Saving signs you in as ${link.username}.`
          : "Choose a username and password for your account; your order will show in My Orders."}
      </p>
      <DeliverySettingsForm
        defaultValues={link.settings}
        submitLabel="Save and start deliveries"
        busy={save.isPending}
        onSubmit={submit}
      >
        {!link.username && (
          <fieldset className="space-y-4 rounded-xl border border-line p-4">
            <legend className="px-1 text-sm font-semibold">Your account</legend>
            <Field
              label="Username"
              autoComplete="username"
              value={account.username}
              error={accountErrors.username}
              onChange={(event) => setAccount({ ...account, username: event.target.value })}
            />
            <Field
              label="Password"
              type="password"
              autoComplete="new-password"
              value={account.password}
              error={accountErrors.password}
              onChange={(event) => setAccount({ ...account, password: event.target.value })}
            />
          </fieldset>
        )}
      </DeliverySettingsForm>
    </div>
  );
}

export default function DeliverySetup(props: LinkProps) {
  return (
    <AppProviders>
      <Setup {...props} />
    </AppProviders>
  );
}

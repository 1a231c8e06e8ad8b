/**
 * /delivery-setup: the buyer opens the e-mailed link and fills in where and when transfers go. The link
 * never signs anyone in by itself (decision 0028): the order's account asks for its password, and an
 * order bought without an account gets a new one or goes to the buyer's existing account (its password).
 */

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AppProviders } from "../../../islands/AppProviders";
import { QueryProvider } from "../../../islands/QueryProvider";
import { ApiError, api, call, errorMessage } from "../../../lib/api";
import { $user } from "../../../lib/stores";
import { Field } from "../../../ui/input";
import { Spinner } from "../../../ui/spinner";
import { buttonClass } from "../../../ui/styles";
import { toast } from "../../../ui/toast";
import { SETUP_LINK_INVALID, SETUP_LINK_TTL_DAYS, SETUP_SIGN_IN_FIRST } from "../delivery-setup";
import type { DeliverySettingsValues } from "../schemas/delivery-setup";
import { DeliverySettingsForm } from "./DeliverySettingsForm";

type AccountErrors = { username?: string | undefined; password?: string | undefined };
type Credentials = { username: string; password: string };
/** The account rules, loaded with the first save (zod stays out of the page's first load, decision 0016). */
const credentialSchemas = () =>
  import("../schemas/delivery-setup").then((m) => ({
    account: m.deliverySetupSchema.shape.account.unwrap(),
    signIn: m.deliverySetupSchema.shape.signIn.unwrap(),
  }));

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
  const [account, setAccount] = useState<Credentials>({ username: "", password: "" });
  const [existing, setExisting] = useState(false);
  const [accountErrors, setAccountErrors] = useState<AccountErrors>({});
  const check = useQuery({
    queryKey: ["/api/delivery-setup/check", token],
    queryFn: () => call(api["delivery-setup"].check.$post({ json: { token } })),
    enabled: token !== "",
  });
  const save = useMutation({
    mutationFn: (body: { settings: DeliverySettingsValues; account?: Credentials; signIn?: Credentials }) =>
      call(api["delivery-setup"].$post({ json: { token, ...body } })),
    onSuccess: ({ user }) => $user.set(user),
    onError: (error) => {
      if (error instanceof ApiError) {
        const errors = error.fieldErrors;
        setAccountErrors({
          username: errors["account.username"] ?? errors["signIn.username"],
          password: errors["account.password"] ?? errors["signIn.password"],
        });
      }
      toast({ title: "Not saved", description: errorMessage(error, "Please try again."), variant: "destructive" });
    },
  });

  if (!token || check.isError || check.data?.valid === false) return <InvalidLink />;
  if (!check.data) return <Spinner label="Checking your link..." />;
  const link = check.data;
  const who = link.account;

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

  if (who.kind === "sign-in-first") {
    const next = encodeURIComponent(`/delivery-setup?token=${token}`);
    return (
      <div className="text-center" role="alert">
        <p className="text-ink-soft">{SETUP_SIGN_IN_FIRST}</p>
        <a href={`/login?next=${next}`} className={buttonClass("primary", "md", "mt-6")}>
          Sign in
        </a>
      </div>
    );
  }

  const submit = async (settings: DeliverySettingsValues) => {
    if (who.kind === "signed-in") return save.mutate({ settings });
    const credentials = who.kind === "password" ? { ...account, username: who.username } : account;
    const schemas = await credentialSchemas();
    const parsed = (who.kind === "new" && !existing ? schemas.account : schemas.signIn).safeParse(credentials);
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
    if (who.kind === "new" && !existing) save.mutate({ settings, account: parsed.data });
    else save.mutate({ settings, signIn: parsed.data });
  };

  const creating = who.kind === "new" && !existing;
  return (
    <div className="space-y-5">
      <p className="text-ink-soft">
        Order <span className="font-mono">{link.orderId.slice(0, 8)}</span>: {link.transfers} live transfers for{" "}
        {link.email}.{" "}
        {who.kind === "signed-in"
          ? `You are signed in as ${who.username}.`
          : who.kind === "password"
            ? `This order belongs to ${who.username}: enter its password to save.`
            : "Create an account for this order, or sign in to the one you have; the order will show in My Orders."}
      </p>
      <DeliverySettingsForm
        defaultValues={link.settings}
        submitLabel="Save and start deliveries"
        busy={save.isPending}
        onSubmit={submit}
      >
        {who.kind !== "signed-in" && (
          <fieldset className="space-y-4 rounded-xl border border-line p-4">
            <legend className="px-1 text-sm font-semibold">Your account</legend>
            {who.kind === "new" && (
              <div className="flex flex-wrap gap-4 text-sm">
                {[false, true].map((value) => (
                  <label key={String(value)} className="flex items-center gap-2">
                    <input
                      type="radio"
                      name="account-kind"
                      checked={existing === value}
                      onChange={() => setExisting(value)}
                    />
                    {value ? "I already have an account" : "Create a new account"}
                  </label>
                ))}
              </div>
            )}
            {who.kind === "new" && (
              <Field
                label="Username"
                autoComplete="username"
                value={account.username}
                error={accountErrors.username}
                onChange={(event) => setAccount({ ...account, username: event.target.value })}
              />
            )}
            <Field
              label="Password"
              type="password"
              autoComplete={creating ? "new-password" : "current-password"}
              value={account.password}
              error={accountErrors.password}
              onChange={(event) => setAccount({ ...account, password: event.target.value })}
            />
            {!creating && (
              <a href="/forgot-password" className="text-sm underline">
                Forgot your password?
              </a>
            )}
          </fieldset>
        )}
      </DeliverySettingsForm>
    </div>
  );
}

export default function DeliverySetup(props: LinkProps) {
  return (
    <QueryProvider>
      <AppProviders>
        <Setup {...props} />
      </AppProviders>
    </QueryProvider>
  );
}

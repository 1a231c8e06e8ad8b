/**
 * My Account → Integrations: the buyer's webhook endpoints (at most five), each with its
 * events, on/off switch, signing secret (shown once, rotatable), "Send test event" and delivery log.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useId, useState } from "react";
import { formatDateTime } from "../../../domain/format";
import { api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { Spinner } from "../../../ui/spinner";
import { inputClass } from "../../../ui/styles";
import { toast } from "../../../ui/toast";
import { WEBHOOK_MAX_ENDPOINTS } from "../../webhook-outbox/index";
import type { WebhookEndpointValues, WebhookEndpointView } from "../schemas/webhook-settings";
import { DeliveryLog, deliveriesUrl } from "./DeliveryLog";

/** The endpoint form (and its form library) loads when an endpoint is added or edited, not with the view. */
const LazyEndpointForm = lazy(() => import("./EndpointForm").then((m) => ({ default: m.EndpointForm })));
function EndpointForm(props: Parameters<typeof LazyEndpointForm>[0]) {
  return (
    <Suspense fallback={<Spinner label="Loading the form..." />}>
      <LazyEndpointForm {...props} />
    </Suspense>
  );
}

const ENDPOINTS_URL = "/api/webhook-endpoints";

/** A signing secret just created: shown this once, with a copy button. */
function SecretNotice({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="space-y-3 rounded-xl border border-brand-100 bg-brand-50 p-4">
      <p className="font-semibold">Signing secret of {name}: copy it now, it is shown only once.</p>
      <div className="flex flex-wrap gap-2">
        <label htmlFor={`${id}-secret`} className="sr-only">
          Signing secret
        </label>
        <input
          id={`${id}-secret`}
          readOnly
          value={secret}
          className={`${inputClass} min-w-0 flex-1 font-mono text-sm`}
          onFocus={(event) => event.target.select()}
        />
        <Button
          variant="secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(secret).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </Button>
        <Button onClick={onDone}>I have saved it</Button>
      </div>
      <p className="text-sm text-ink-soft">
        Check each request's <code>Webhook-Signature</code> header with it: <code>t=</code> is the time,{" "}
        <code>v1=</code> the hex HMAC-SHA256 of <code>t.body</code>. The event schemas are in the{" "}
        <a className="text-brand-700 underline" href="/api/v1/docs#webhooks">
          API reference
        </a>
        .
      </p>
    </div>
  );
}

function endpointState(endpoint: WebhookEndpointView): string {
  if (endpoint.disabledAt)
    return `Switched off on ${formatDateTime(endpoint.disabledAt)}: it failed for 3 days in a row.`;
  if (!endpoint.enabled) return "Off: no events are sent.";
  if (endpoint.failingSince) return `On, but failing since ${formatDateTime(endpoint.failingSince)}.`;
  return "On.";
}

function EndpointCard({
  endpoint,
  onSecret,
}: {
  endpoint: WebhookEndpointView;
  onSecret: (name: string, secret: string) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [logOpen, setLogOpen] = useState(false);
  const param = { param: { id: endpoint.id } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: [ENDPOINTS_URL] });
  const failed = (title: string) => (error: unknown) =>
    toast({ title, description: errorMessage(error, "Please try again."), variant: "destructive" });

  const patch = (json: Partial<WebhookEndpointValues>) =>
    call(api["webhook-endpoints"][":id"].$patch({ ...param, json }));
  const save = useMutation({ mutationFn: patch, onSuccess: refresh });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => patch({ enabled }),
    onSuccess: refresh,
    onError: failed("Could not switch the endpoint"),
  });
  const rotate = useMutation({
    mutationFn: () => call(api["webhook-endpoints"][":id"]["rotate-secret"].$post(param)),
    onSuccess: async (rotated) => {
      onSecret(rotated.name, rotated.secret);
      await refresh();
    },
    onError: failed("Could not rotate the secret"),
  });
  const test = useMutation({
    mutationFn: () => call(api["webhook-endpoints"][":id"].test.$post(param)),
    onSuccess: async () => {
      toast({ title: "Test event queued", description: "It appears in the delivery log below.", variant: "success" });
      setLogOpen(true);
      await queryClient.invalidateQueries({ queryKey: [deliveriesUrl(endpoint.id)] });
    },
    onError: failed("Could not send a test event"),
  });
  const remove = useMutation({
    mutationFn: () => call(api["webhook-endpoints"][":id"].$delete(param)),
    onSuccess: refresh,
    onError: failed("Could not delete the endpoint"),
  });

  if (editing) {
    return (
      <li>
        <Card>
          <EndpointForm
            endpoint={endpoint}
            onCancel={() => setEditing(false)}
            onSave={async (values) => {
              await save.mutateAsync(values);
              setEditing(false);
            }}
          />
        </Card>
      </li>
    );
  }
  return (
    <li>
      <Card className="space-y-4" aria-labelledby={`${id}-name`}>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 id={`${id}-name`} className="text-lg font-semibold">
              {endpoint.name}
            </h3>
            <p className="font-mono text-sm break-all text-ink-soft">{endpoint.url}</p>
            <p className="mt-1 text-sm">{endpointState(endpoint)}</p>
          </div>
          <button
            type="button"
            role="switch"
            aria-checked={endpoint.enabled}
            aria-label={`Send events to ${endpoint.name}`}
            disabled={toggle.isPending}
            onClick={() => toggle.mutate(!endpoint.enabled)}
            className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${endpoint.enabled ? "bg-brand-600" : "bg-slate-400"}`}
          >
            <span
              aria-hidden="true"
              className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${endpoint.enabled ? "translate-x-6" : "translate-x-1"}`}
            />
          </button>
        </div>
        <ul className="flex flex-wrap gap-2" aria-label="Events">
          {endpoint.events.map((type) => (
            <li key={type} className="rounded-full bg-surface px-2.5 py-0.5 font-mono text-xs">
              {type}
            </li>
          ))}
        </ul>
        <p className="text-sm text-ink-soft">
          Secret created {formatDateTime(endpoint.secretCreatedAt)}
          {endpoint.previousSecretExpiresAt && new Date(endpoint.previousSecretExpiresAt).getTime() > Date.now()
            ? `; the previous one also signs until ${formatDateTime(endpoint.previousSecretExpiresAt)}.`
            : "."}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button busy={test.isPending} onClick={() => test.mutate()}>
            Send test event
          </Button>
          <Button variant="secondary" aria-expanded={logOpen} onClick={() => setLogOpen(!logOpen)}>
            {logOpen ? "Hide delivery log" : "Delivery log"}
          </Button>
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit
          </Button>
          <Button variant="secondary" busy={rotate.isPending} onClick={() => rotate.mutate()}>
            Rotate secret
          </Button>
          <Button
            variant="ghost"
            busy={remove.isPending}
            onClick={() => {
              if (window.confirm(`Delete ${endpoint.name} and its delivery log?`)) remove.mutate();
            }}
          >
            Delete
          </Button>
        </div>
        {logOpen && <DeliveryLog endpointId={endpoint.id} endpointName={endpoint.name} />}
      </Card>
    </li>
  );
}

export function IntegrationsView() {
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const endpoints = useQuery({
    queryKey: [ENDPOINTS_URL],
    queryFn: () => call(api["webhook-endpoints"].$get()),
  });
  const create = useMutation({
    mutationFn: (json: WebhookEndpointValues) => call(api["webhook-endpoints"].$post({ json })),
    onSuccess: async (created) => {
      setAdding(false);
      setSecret({ name: created.name, secret: created.secret });
      await queryClient.invalidateQueries({ queryKey: [ENDPOINTS_URL] });
    },
  });
  const list = endpoints.data ?? [];
  const full = list.length >= WEBHOOK_MAX_ENDPOINTS;
  return (
    <section aria-labelledby="integrations-title" className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="integrations-title" className="text-2xl font-bold">
          Integrations
        </h2>
        {!adding && (
          <Button disabled={full || endpoints.isPending} onClick={() => setAdding(true)}>
            Add endpoint
          </Button>
        )}
      </div>
      <p className="text-ink-soft">
        Send each lead you buy and each live transfer, payment and return decision to your CRM or dialer as it happens:
        a signed HTTPS POST to your endpoint, retried for 3 days until it answers 2xx. Up to {WEBHOOK_MAX_ENDPOINTS}{" "}
        endpoints.
        {full && ` You have ${WEBHOOK_MAX_ENDPOINTS}: delete one to add another.`}
      </p>
      {secret && <SecretNotice name={secret.name} secret={secret.secret} onDone={() => setSecret(null)} />}
      {adding && (
        <Card>
          <EndpointForm onSave={(values) => create.mutateAsync(values)} onCancel={() => setAdding(false)} />
        </Card>
      )}
      {endpoints.isPending ? (
        <Spinner label="Loading your endpoints..." />
      ) : endpoints.isError ? (
        <p className="text-ink-soft">
          {errorMessage(endpoints.error, "Your endpoints could not be loaded. Please reload the page.")}
        </p>
      ) : list.length === 0 ? (
        !adding && (
          <p className="rounded-xl border border-dashed border-line py-12 text-center text-ink-soft">
            No endpoints yet. Add one to receive your purchases and deliveries in your own systems.
          </p>
        )
      ) : (
        <ul className="space-y-4">
          {list.map((endpoint) => (
            <EndpointCard
              key={endpoint.id}
              endpoint={endpoint}
              onSecret={(name, value) => setSecret({ name, secret: value })}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Adding or changing a webhook endpoint: name, URL, the events it receives and its on/off switch. */
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { ApiError, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Form, fieldProps, lazyZodResolver } from "../../../ui/form";
import { Field } from "../../../ui/input";
import { fieldErrorClass } from "../../../ui/styles";
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from "../../webhook-outbox/index";
import type { WebhookEndpointInput, WebhookEndpointValues, WebhookEndpointView } from "../schemas/webhook-settings";

const FIELDS = ["name", "url", "events", "enabled"] as const;

export function EndpointForm({
  endpoint,
  onSave,
  onCancel,
}: {
  /** The endpoint to change; none to add one. */
  endpoint?: WebhookEndpointView;
  onSave: (values: WebhookEndpointValues) => Promise<unknown>;
  onCancel: () => void;
}) {
  const id = useId();
  const form = useForm<WebhookEndpointInput, unknown, WebhookEndpointValues>({
    resolver: lazyZodResolver(() => import("../schemas/webhook-settings").then((m) => m.webhookEndpointSchema)),
    defaultValues: endpoint
      ? { name: endpoint.name, url: endpoint.url, events: endpoint.events, enabled: endpoint.enabled }
      : { name: "", url: "", events: ["lead.purchased"], enabled: true },
  });
  const [serverError, setServerError] = useState("");
  const eventsError = fieldProps(form, "events").error;

  async function submit(values: WebhookEndpointValues) {
    setServerError("");
    try {
      await onSave(values);
    } catch (error) {
      // The server's reason goes next to its field (the address guard's goes under the URL).
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      const field = FIELDS.find((name) => fields[name]);
      if (field) form.setError(field, { message: fields[field] });
      else setServerError(errorMessage(error, "The endpoint could not be saved. Please try again."));
    }
  }

  return (
    <Form className="space-y-5" onSubmit={form.handleSubmit(submit)} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-lg font-semibold">
        {endpoint ? `Change ${endpoint.name}` : "Add an endpoint"}
      </h3>
      <Field label="Name" autoComplete="off" data-autofocus {...fieldProps(form, "name")} />
      <Field
        label="URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://crm.example.com/webhooks"
        hint="An https address on the public internet. While developing, http://localhost works too."
        {...fieldProps(form, "url")}
      />
      <fieldset aria-describedby={eventsError ? `${id}-events-error` : undefined}>
        <legend className="mb-2 text-sm font-medium text-ink">Events to send</legend>
        <ul className="grid gap-2 sm:grid-cols-2">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <li key={type}>
              <label className="flex gap-3 rounded-lg border border-line p-3 text-sm has-[:checked]:border-brand-600">
                <input
                  type="checkbox"
                  value={type}
                  className="mt-0.5 h-5 w-5 shrink-0 accent-brand-600"
                  {...form.register("events")}
                />
                <span>
                  <code className="font-semibold text-ink">{type}</code>
                  <span className="block text-ink-soft">{WEBHOOK_EVENT_DESCRIPTIONS[type]}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
        {eventsError && (
          <p id={`${id}-events-error`} className={fieldErrorClass} role="alert">
            {eventsError}
          </p>
        )}
      </fieldset>
      <label className="flex items-center gap-3 text-sm font-medium">
        <input type="checkbox" className="h-5 w-5 accent-brand-600" {...form.register("enabled")} />
        Send events to this endpoint (on)
      </label>
      {serverError && (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-900">
          {serverError}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" busy={form.formState.isSubmitting}>
          {endpoint ? "Save changes" : "Add endpoint"}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}

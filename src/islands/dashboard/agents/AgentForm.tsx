/** Adds an agent to an order or changes one (docs/decisions/0071); the rules and messages are the API's own schema. */
import { useId, useState } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { AGENT_HOURS_HINT } from "../../../domain/agents";
import { WEEKDAY_NAMES } from "../../../domain/delivery-limits";
import { TIME_ZONE_LABELS } from "../../../domain/delivery-setup";
import type { Agent, AgentValues } from "../../../domain/schemas/agents";
import { defaultTimeZone, US_TIME_ZONES, type UsTimeZone } from "../../../domain/time-zones";
import { ApiError, api, call, errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { Form, fieldProps, lazyZodResolver } from "../../../ui/form";
import { Field, SelectField } from "../../../ui/input";
import { fieldErrorClass, labelClass } from "../../../ui/styles";

const ZONE_OPTIONS = US_TIME_ZONES.map((zone) => ({ value: zone, label: TIME_ZONE_LABELS[zone] }));

interface FormValues {
  name: string;
  transferPhone: string;
  /** "TX, FL": codes or names, separated by commas. */
  states: string;
  timeZone: UsTimeZone;
  /** The checked weekdays ("0" = Sunday). */
  days: string[];
  hoursStart: string;
  hoursEnd: string;
}

const FIELDS = ["name", "transferPhone", "states", "timeZone", "days", "hoursStart", "hoursEnd"] as const;

function startingValues(agent: Agent | undefined): FormValues {
  if (!agent) {
    return {
      name: "",
      transferPhone: "",
      states: "",
      timeZone: defaultTimeZone(undefined),
      days: ["1", "2", "3", "4", "5"],
      hoursStart: "09:00",
      hoursEnd: "17:00",
    };
  }
  return {
    name: agent.name,
    transferPhone: agent.transferPhone,
    states: agent.states.join(", "),
    timeZone: US_TIME_ZONES.find((zone) => zone === agent.timeZone) ?? defaultTimeZone(agent.states[0]),
    days: agent.days.map(String),
    hoursStart: agent.hoursStart,
    hoursEnd: agent.hoursEnd,
  };
}

interface Props {
  orderId: string;
  /** The agent to change; none adds one. */
  agent?: Agent;
  onSaved: (agent: Agent) => void;
  onCancel: () => void;
}

export default function AgentForm({ orderId, agent, onSaved, onCancel }: Props) {
  const id = useId();
  const [failure, setFailure] = useState("");
  const form = useForm<FormValues, unknown, AgentValues>({
    // The schema (and zod) load with the first validation (decision 0016).
    resolver: lazyZodResolver(() =>
      import("../../../domain/schemas/agents").then((m) => m.agentInputSchema),
    ) as unknown as Resolver<FormValues, unknown, AgentValues>,
    defaultValues: startingValues(agent),
  });
  const daysError = form.formState.errors.days?.message;

  const save = async (values: AgentValues) => {
    setFailure("");
    try {
      const param = { id: orderId };
      const saved = agent
        ? await call(
            api["transfer-orders"][":id"].agents[":agentId"].$put({
              param: { ...param, agentId: agent.id },
              json: values,
            }),
          )
        : await call(api["transfer-orders"][":id"].agents.$post({ param, json: values }));
      onSaved(saved);
    } catch (error) {
      // The server's own message: on the field it names, else under the form.
      let marked = false;
      if (error instanceof ApiError) {
        for (const field of FIELDS) {
          const message = error.fieldErrors[field];
          if (message) form.setError(field, { message }, { shouldFocus: !marked });
          marked ||= Boolean(message);
        }
      }
      if (!marked) setFailure(errorMessage(error, "The agent could not be saved. Please try again."));
    }
  };

  return (
    <Form
      onSubmit={form.handleSubmit(save)}
      aria-labelledby={`${id}-title`}
      className="space-y-4 rounded-xl border border-line bg-surface p-4"
    >
      <h4 id={`${id}-title`} className="font-semibold">
        {agent ? `Edit ${agent.name}` : "Add an agent"}
      </h4>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Agent's name" autoComplete="off" data-autofocus {...fieldProps(form, "name")} />
        <Field
          label="Transfer phone number"
          type="tel"
          autoComplete="off"
          hint="The US number this agent's transfers ring."
          {...fieldProps(form, "transferPhone")}
        />
      </div>
      <Field
        label="Licensed states"
        hint="Two-letter codes separated by commas, e.g. TX, FL."
        {...fieldProps(form, "states")}
      />
      <fieldset aria-describedby={daysError ? `${id}-days-error` : undefined}>
        <legend className={labelClass}>Working days</legend>
        <div className="flex flex-wrap gap-3">
          {WEEKDAY_NAMES.map((weekday, day) => (
            <label key={weekday} className="flex items-center gap-1.5 text-sm">
              <input type="checkbox" value={String(day)} {...form.register("days")} />
              {weekday}
            </label>
          ))}
        </div>
        {daysError && (
          <p id={`${id}-days-error`} className={fieldErrorClass} role="alert">
            {daysError}
          </p>
        )}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Takes calls from" type="time" {...fieldProps(form, "hoursStart")} />
        <Field label="Takes calls until" type="time" {...fieldProps(form, "hoursEnd")} />
        <SelectField label="Time zone" options={ZONE_OPTIONS} {...fieldProps(form, "timeZone")} />
      </div>
      <p className="text-sm text-muted">{AGENT_HOURS_HINT}</p>
      {failure && (
        <p role="alert" className={fieldErrorClass}>
          {failure}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" busy={form.formState.isSubmitting}>
          {agent ? "Save agent" : "Add agent"}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}

/**
 * Adds an agent to an order or changes one (docs/decisions/0071); the rules and messages are the API's own
 * schema. Plain React state, not react-hook-form: My Orders with this form open stays within its 100 KB
 * (decision 0032).
 */
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from "react";
import { defaultTimeZone, US_TIME_ZONES, type UsTimeZone } from "../../../../domain/time-zones";
import { ApiError, api, call, errorMessage } from "../../../../lib/api";
import { Button } from "../../../../ui/button";
import { Form } from "../../../../ui/form";
import { Field, SelectField } from "../../../../ui/input";
import { fieldErrorClass, labelClass } from "../../../../ui/styles";
import { AGENT_HOURS_HINT } from "../../agents";
import { WEEKDAY_NAMES } from "../../delivery-limits";
import { TIME_ZONE_OPTIONS } from "../../delivery-setup";
import type { Agent, AgentValues, agentInputSchema } from "../../schemas/agents";

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
type FieldName = keyof FormValues;
type Errors = Partial<Record<FieldName, string>>;
type Schema = typeof agentInputSchema;

/** The fields in the order they show: a failed save focuses the first one with a message. */
const FIELDS = ["name", "transferPhone", "states", "days", "hoursStart", "hoursEnd", "timeZone"] as const;
const isField = (key: unknown): key is FieldName => FIELDS.some((field) => field === key);

// The schema (and zod) load with the first save, not with the form (decision 0016).
const loadSchema = () => import("../../schemas/agents").then((m) => m.agentInputSchema);

/** Each field's first message of a failed parse. */
function messagesOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (isField(field)) errors[field] ??= issue.message;
  }
  return errors;
}

function focusFirst(form: HTMLFormElement, errors: Errors) {
  const field = FIELDS.find((name) => errors[name]);
  if (field) form.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
}

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
  const [values, setValues] = useState(() => startingValues(agent));
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState("");
  // Once a save was tried, each change checks its own field again (as the messages should follow the fix).
  const schema = useRef<Schema | null>(null);

  const change = <Name extends FieldName>(field: Name, value: FormValues[Name]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (!schema.current) return;
    const parsed = schema.current.safeParse(next);
    const message = parsed.success ? undefined : messagesOf(parsed.error.issues)[field];
    setErrors((current) => ({ ...current, [field]: message }));
  };
  const text = (field: "name" | "transferPhone" | "states" | "hoursStart" | "hoursEnd") => ({
    name: field,
    value: values[field],
    error: errors[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => change(field, event.target.value),
  });
  const toggleDay = (day: string, checked: boolean) =>
    change("days", checked ? [...values.days, day].sort() : values.days.filter((other) => other !== day));

  const save = async (input: AgentValues, form: HTMLFormElement) => {
    try {
      const param = { id: orderId };
      const saved = agent
        ? await call(
            api["transfer-orders"][":id"].agents[":agentId"].$put({
              param: { ...param, agentId: agent.id },
              json: input,
            }),
          )
        : await call(api["transfer-orders"][":id"].agents.$post({ param, json: input }));
      onSaved(saved);
    } catch (error) {
      // The server's own message: on the field it names, else under the form.
      const named: Errors = {};
      if (error instanceof ApiError) for (const field of FIELDS) named[field] = error.fieldErrors[field];
      if (FIELDS.some((field) => named[field])) {
        setErrors(named);
        focusFirst(form, named);
      } else {
        setFailure(errorMessage(error, "The agent could not be saved. Please try again."));
      }
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    setBusy(true);
    setFailure("");
    try {
      schema.current ??= await loadSchema();
      const parsed = schema.current.safeParse(values);
      if (parsed.success) {
        setErrors({});
        await save(parsed.data, form);
      } else {
        const found = messagesOf(parsed.error.issues);
        setErrors(found);
        focusFirst(form, found);
      }
    } catch (error) {
      setFailure(errorMessage(error, "The agent could not be saved. Please try again."));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className="space-y-4 rounded-xl border border-line bg-surface p-4"
    >
      <h4 id={`${id}-title`} className="font-semibold">
        {agent ? `Edit ${agent.name}` : "Add an agent"}
      </h4>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Agent's name" autoComplete="off" data-autofocus {...text("name")} />
        <Field
          label="Transfer phone number"
          type="tel"
          autoComplete="off"
          hint="The US number this agent's transfers ring."
          {...text("transferPhone")}
        />
      </div>
      <Field label="Licensed states" hint="Two-letter codes separated by commas, e.g. TX, FL." {...text("states")} />
      <fieldset aria-describedby={errors.days ? `${id}-days-error` : undefined}>
        <legend className={labelClass}>Working days</legend>
        <div className="flex flex-wrap gap-3">
          {WEEKDAY_NAMES.map((weekday, day) => (
            <label key={weekday} className="flex items-center gap-1.5 text-sm">
              <input
                type="checkbox"
                name="days"
                value={String(day)}
                checked={values.days.includes(String(day))}
                onChange={(event) => toggleDay(String(day), event.target.checked)}
              />
              {weekday}
            </label>
          ))}
        </div>
        {errors.days && (
          <p id={`${id}-days-error`} className={fieldErrorClass} role="alert">
            {errors.days}
          </p>
        )}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Takes calls from" type="time" {...text("hoursStart")} />
        <Field label="Takes calls until" type="time" {...text("hoursEnd")} />
        <SelectField
          label="Time zone"
          name="timeZone"
          options={TIME_ZONE_OPTIONS}
          value={values.timeZone}
          error={errors.timeZone}
          onChange={(event) =>
            change("timeZone", US_TIME_ZONES.find((zone) => zone === event.target.value) ?? values.timeZone)
          }
        />
      </div>
      <p className="text-sm text-muted">{AGENT_HOURS_HINT}</p>
      {failure && (
        <p role="alert" className={fieldErrorClass}>
          {failure}
        </p>
      )}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" busy={busy}>
          {agent ? "Save agent" : "Add agent"}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}

/** The agents' form and API bodies (docs/decisions/0071); the limits and messages are in ../agents.ts. */

import { normalizeUsPhone } from "../../../domain/phone";
import { z } from "../../../domain/schemas/zod";
import { US_TIME_ZONES } from "../../../domain/time-zones";
import { US_STATE_CODES } from "../../../domain/us-states";
import { AGENT_MESSAGES, MAX_AGENT_NAME } from "../agents";
import { CLOCK, statesFromText } from "../delivery-setup";

const weekday = z.coerce
  .number({ error: AGENT_MESSAGES.days })
  .int(AGENT_MESSAGES.days)
  .min(0, AGENT_MESSAGES.days)
  .max(6, AGENT_MESSAGES.days);

/** A new agent, or every field of one changed (hours as HH:MM in `timeZone`; end before start spans midnight). */
export const agentInputSchema = z.object({
  name: z
    .string({ error: AGENT_MESSAGES.name })
    .trim()
    .min(1, AGENT_MESSAGES.name)
    .max(MAX_AGENT_NAME, AGENT_MESSAGES.name),
  transferPhone: z
    .string({ error: AGENT_MESSAGES.transferPhone })
    .max(30, AGENT_MESSAGES.transferPhone)
    .refine((value) => normalizeUsPhone(value) !== null, AGENT_MESSAGES.transferPhone),
  states: z.preprocess(
    (value) => (typeof value === "string" ? statesFromText(value) : value),
    z
      .array(z.enum(US_STATE_CODES, { error: AGENT_MESSAGES.states }), { error: AGENT_MESSAGES.states })
      .min(1, AGENT_MESSAGES.states)
      .max(US_STATE_CODES.length, AGENT_MESSAGES.states),
  ),
  timeZone: z.enum(US_TIME_ZONES, { error: AGENT_MESSAGES.timeZone }),
  days: z.preprocess(
    (value) => (value === undefined || value === null || value === false ? [] : [value].flat()),
    z.array(weekday).min(1, AGENT_MESSAGES.days).max(7, AGENT_MESSAGES.days),
  ),
  hoursStart: z.string({ error: AGENT_MESSAGES.hoursStart }).regex(CLOCK, AGENT_MESSAGES.hoursStart),
  hoursEnd: z.string({ error: AGENT_MESSAGES.hoursEnd }).regex(CLOCK, AGENT_MESSAGES.hoursEnd),
  /** The switch; a new agent without it takes calls, an edit without it keeps the agent's. */
  takingCalls: z.boolean().optional(),
});
export type AgentInput = z.input<typeof agentInputSchema>;
export type AgentValues = z.output<typeof agentInputSchema>;

/** The agent's own switch alone ("taking calls now"). */
export const agentSwitchSchema = z.object({ takingCalls: z.boolean() });

/** An agent as the API answers it, with what it did on the order's local day. */
export const agentSchema = z.object({
  id: z.string(),
  name: z.string(),
  transferPhone: z.string(),
  states: z.array(z.string()),
  timeZone: z.string(),
  days: z.array(z.number().int()),
  hoursStart: z.string(),
  hoursEnd: z.string(),
  takingCalls: z.boolean(),
  /** On a call now (routed or connected, not yet ended or timed out). */
  onCall: z.boolean(),
  callsToday: z.number().int(),
  billableToday: z.number().int(),
});
export type Agent = z.infer<typeof agentSchema>;

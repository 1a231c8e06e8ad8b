/**
 * An order's agents (docs/decisions/0071): who may take a transfer, and the messages a bad agent gets.
 * The form and API bodies are in ./schemas/agents.ts; routing's choice among them is in the Worker.
 */

/** At most this many agents (removed ones not counted) on one order. */
export const MAX_AGENTS_PER_ORDER = 50;
/** An agent's name, at most this long. */
export const MAX_AGENT_NAME = 80;

export const AGENT_MESSAGES = {
  name: `Enter the agent's name (at most ${MAX_AGENT_NAME} characters)`,
  transferPhone: "Enter the 10-digit US number this agent's transfers should ring",
  states: "Choose at least one state the agent is licensed in (two-letter codes, e.g. TX, FL)",
  timeZone: "Choose the time zone of the agent's hours",
  days: "Choose at least one weekday the agent works",
  hoursStart: "Choose when the agent starts taking calls",
  hoursEnd: "Choose when the agent stops taking calls",
  tooMany: `An order has at most ${MAX_AGENTS_PER_ORDER} agents; remove one before adding another`,
  notFound: "That agent is not on this order",
} as const;

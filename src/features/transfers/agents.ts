/**
 * An order's agents (docs/decisions/0071): who may take a transfer, and the messages a bad agent gets.
 * The form and API bodies are in ./schemas/agents.ts; routing's choice among them is in the Worker.
 */

import type { UsTimeZone } from "../../domain/time-zones.ts";
import { daysText } from "./delivery-limits.ts";
import { TIME_ZONE_LABELS, toMinute } from "./delivery-setup.ts";
import { formatMinute } from "./hours.ts";

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

/** What agents change, in one sentence (the dashboard's Agents panel). */
export const AGENTS_EXPLAINED =
  "With agents, each transfer rings one free agent licensed in the caller's state, within their hours; with none, transfers ring the order's transfer number.";

/** How the form explains hours that end before they start, and equal ones. */
export const AGENT_HOURS_HINT =
  "Hours in the agent's time zone. An end before the start runs past midnight (8:00 PM – 2:00 AM); the same start and end means all day.";

/** "3 calls today · 2 billable (67%)", or "No calls yet today". */
export function billableRateText(callsToday: number, billableToday: number): string {
  if (callsToday === 0) return "No calls yet today";
  const rate = Math.round((billableToday / callsToday) * 100);
  return `${callsToday} ${callsToday === 1 ? "call" : "calls"} today · ${billableToday} billable (${rate}%)`;
}

/** "Mon–Fri, 9:00 AM – 5:00 PM Central"; "Every day, all day Eastern"; hours past midnight say so. */
export function agentScheduleText(agent: { days: number[]; hoursStart: string; hoursEnd: string; timeZone: string }) {
  const days = agent.days.length === 7 ? "Every day" : daysText(agent.days);
  const start = toMinute(agent.hoursStart);
  const end = toMinute(agent.hoursEnd);
  const hours =
    start === end ? "all day" : `${formatMinute(start)} – ${formatMinute(end)}${end < start ? " (past midnight)" : ""}`;
  const zone = TIME_ZONE_LABELS[agent.timeZone as UsTimeZone] ?? agent.timeZone;
  return `${days}, ${hours} ${zone}`;
}

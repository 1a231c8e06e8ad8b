/**
 * The partner API's OpenAPI route definitions: its three routes with their request and answer schemas
 * (the payloads are src/features/transfers/schemas/partner-api.ts, named here as OpenAPI components) and the error
 * answers every keyed route documents. worker/features/partners/routes/partner-api.ts serves them.
 */
import { createRoute, z } from "@hono/zod-openapi";
import {
  APPOINTMENT_MINUTES,
  callbackAcceptedSchema,
  callbackSchema,
  MAX_DAYS_AHEAD,
  MAX_WINDOW_MINUTES,
} from "../../../../src/features/callbacks/index";
import { PARTNER_SUSPENDED } from "../../../../src/features/partners/schemas/partner-account";
import {
  CONNECTED_HOLD_SECONDS,
  DUPLICATE_WINDOW_DAYS,
  eventRefusedSchema,
  noRouteSchema,
  pingSchema,
  ROUTE_ANSWER_TTL_SECONDS,
  routeAnswerSchema,
  TRANSFER_BUFFER_SECONDS,
  transferEventSchema,
  transferIdSchema,
  transferSchema,
} from "../../../../src/features/transfers/index";
import { PARTNER_KEY_RULE, PARTNER_RULE } from "../../../services/rate-limiter";

// The payloads, under the component names the document has always used. They are built in src/ (which has
// no @hono/zod-openapi), maybe before this module extended zod, and zod 4 gives `.openapi` only to schemas
// built after that: the extended prototype's method names them, whichever module loaded first.
const component = <T extends z.ZodType>(schema: T, name: string): T =>
  z.ZodType.prototype.openapi.call(schema, name) as T;
const PingSchema = component(pingSchema, "Ping");
const RouteAnswerSchema = component(routeAnswerSchema, "RouteAnswer");
const NoRouteSchema = component(noRouteSchema, "NoRoute");
const EventRefusedSchema = component(eventRefusedSchema, "EventRefused");
const EventSchema = component(transferEventSchema, "TransferEvent");
const TransferSchema = component(transferSchema, "Transfer");

const ErrorSchema = z
  .object({ message: z.string().openapi({ example: "This API key is not valid." }) })
  .openapi("Error");

/** 403: every key of a suspended partner is refused, whatever the request. */
const SuspendedSchema = z
  .object({ message: z.string().openapi({ example: PARTNER_SUSPENDED }) })
  .openapi("PartnerSuspended");

/** 429: one key, or all of a partner's keys together, sent more than their limit in one second. */
const RateLimitedSchema = z
  .object({
    message: z.string().openapi({
      example: `Too many requests: at most ${PARTNER_KEY_RULE.limit} a second for each API key. Slow down and retry.`,
    }),
  })
  .openapi("RateLimited");

const json = <T>(schema: T, description: string) => ({ content: { "application/json": { schema } }, description });
const errors = {
  400: json(ErrorSchema, "The request breaks a rule; `message` says which."),
  401: json(ErrorSchema, "The API key is missing, unknown or revoked."),
  403: json(
    SuspendedSchema,
    "Your partner account is suspended: every one of its keys is refused until the shop reinstates it. `message` says so.",
  ),
  429: json(
    RateLimitedSchema,
    `Too many requests: more than ${PARTNER_KEY_RULE.limit} a second with one key, or more than ${PARTNER_RULE.limit} a second across all of your keys. \`message\` says which; wait a second and retry.`,
  ),
};
const security = [{ bearerAuth: [] }];

export const ping = createRoute({
  method: "post",
  path: "/transfers",
  summary: "Ping: where should this caller go?",
  description: `Picks one eligible buyer order for the prospect and answers the number to transfer the caller to. The answer holds a slot on the order for ${ROUTE_ANSWER_TTL_SECONDS} seconds: connect within that time (and report \`connected\`) or ping again. Among eligible orders the oldest paid goes first. A buyer gets one prospect phone at most once in ${DUPLICATE_WINDOW_DAYS} days: every answer counts, including one left to expire, until you report \`no-answer\` or \`failed\` for it. The consent evidence is stored for the buyer: every field given must be well-formed (400 names the field), and if the shop requires your account to send a TrustedForm certificate, a ping without \`consent.trustedFormUrl\` answers 400. A caller whose number is on a Do Not Call list is never routed. A buyer's private list leaves out only that buyer's orders: the caller goes to the next eligible order, and without one the answer is the same as for any ping no order can take. The shared lists (the National Registry, state and litigator lists, the shop's own list) answer 409 with \`reason\` \`suppressed\`, but only when an order would otherwise take the call. A call is routed only when it may lawfully be taken at the prospect's location: within the federal hours (8 am to 9 pm) and the stricter hours, Sundays, holidays and calls per 24 hours of the prospect's state (and of their number's area code), in the zone of \`prospect.zip\`, else of the area code's state, else of \`prospect.state\`; where that spans several zones, in every one of them. Otherwise the answer is 409 \`calling_window\` or \`call_limit\` with \`nextAllowedAt\`.`,
  security,
  request: { body: { required: true, ...json(PingSchema, "The prospect and their consent.") } },
  responses: {
    201: json(RouteAnswerSchema, "Routed: transfer the caller to `phoneNumber`."),
    409: json(
      NoRouteSchema,
      `No route. \`reason\` says why: no order open for the state, caps reached, outside hours, a duplicate, your daily call cap, \`suppressed\`, or the calling rules: \`calling_window\` (outside the prospect's legal calling hours) and \`call_limit\` (their state's calls to one number in 24 hours reached), both with \`nextAllowedAt\`, the first moment the call may be routed. \`suppressed\` is answered only when an order would otherwise have taken the call (your key, account, daily call cap, the prospect's state and the orders' hours and caps all allow it) and the caller's number is on a shared Do Not Call list: do not transfer the call. When no order could take the call the answer is the same with or without a Do Not Call list, so a ping is no registry lookup. A \`suppressed\` answer counts against your rate limit (${PARTNER_KEY_RULE.limit} a second per key, ${PARTNER_RULE.limit} across your keys) like every request, and also uses one of your daily calls, as a routed call does. \`call_limit\` likewise: answered only when an order would otherwise have taken the call, and it uses one of your daily calls.`,
    ),
    ...errors,
  },
});

export const event = createRoute({
  method: "post",
  path: "/transfers/{id}/events",
  summary: "Report what happened to a routed call",
  description: `\`connected\`, \`completed\` (with \`durationSeconds\`), \`no-answer\` or \`failed\`. A completed call is billable when the caller stayed longer than ${TRANSFER_BUFFER_SECONDS} seconds and the transfer still held its slot: report \`connected\` within the answer's ${ROUTE_ANSWER_TTL_SECONDS} seconds (the slot is then held for ${CONNECTED_HOLD_SECONDS / 3600} hours) or \`completed\` within them. Later, \`connected\` and \`completed\` are recorded and answer 409 (\`EventRefused\`); the transfer is never billed. Each event type counts once per transfer: repeating it changes nothing, and an event after the call ended is recorded without effect.`,
  security,
  request: { params: transferIdSchema, body: { required: true, ...json(EventSchema, "The event.") } },
  responses: {
    200: json(TransferSchema, "The transfer after the event."),
    404: json(ErrorSchema, "No such transfer among yours."),
    409: json(
      EventRefusedSchema,
      "`connected` or `completed` arrived after the transfer's slot was released (`reason`: `expired` or `hold_expired`): recorded, never billed.",
    ),
    ...errors,
  },
});

export const show = createRoute({
  method: "get",
  path: "/transfers/{id}",
  summary: "Read one of your transfers",
  security,
  request: { params: transferIdSchema },
  responses: {
    200: json(TransferSchema, "The transfer."),
    404: json(ErrorSchema, "No such transfer among yours."),
    ...errors,
  },
});

const CallbackSchema = component(callbackSchema, "Callback");
const CallbackAcceptedSchema = component(callbackAcceptedSchema, "CallbackAccepted");

export const postCallback = createRoute({
  method: "post",
  path: "/callbacks",
  summary: "Hand over a prospect to be called back",
  description: `For a prospect you could not transfer now who agreed to be called back: \`kind\` \`callback\` within a window (\`window.date\`, \`from\`, \`to\`, in the prospect's local time), or \`appointment\` at a set time (\`window.date\`, \`from\`; it holds ${APPOINTMENT_MINUTES} minutes). The prospect's time zone is \`prospect.timeZone\`, or the state's main zone when left out. A window must not have passed, lasts at most ${MAX_WINDOW_MINUTES / 60} hours and starts at most ${MAX_DAYS_AHEAD} days ahead. The same key, suspension and consent rules as a ping apply; a number on a Do Not Call list is refused with 409 \`reason\` \`suppressed\`. The shop delivers it to a buyer's paid call-back order that fits.`,
  security,
  request: { body: { required: true, ...json(CallbackSchema, "The prospect, the window and the consent.") } },
  responses: {
    201: json(CallbackAcceptedSchema, "Taken: the window as instants (UTC)."),
    409: json(NoRouteSchema, "Not taken: `reason` `suppressed` (the number is on a Do Not Call list)."),
    ...errors,
  },
});

/**
 * The partner API, /api/v1 (issue 15, items 4, 5, 8): server-to-server, authenticated by a bearer API
 * key (no session cookie, no same-origin check), described by an OpenAPI document generated from the
 * zod schemas that validate it. Errors are `{ message }` (plus `reason` on a 409 without a route).
 */
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { webhooksOpenApi } from "../../src/domain/schemas/webhooks-openapi";
import {
  CONNECTED_HOLD_SECONDS,
  DUPLICATE_WINDOW_DAYS,
  ROUTE_ANSWER_TTL_SECONDS,
  TRANSFER_BUFFER_SECONDS,
} from "../../src/domain/transfers";
import { InvalidError, NotFoundError } from "../errors";
import { errorJson } from "../http";
import { type PartnerApiBindings, requirePartnerKey } from "../middleware/partner-key";
import { siteOrigin } from "../services/mail";
import { PARTNER_KEY_RULE, PARTNER_RULE } from "../services/rate-limiter";
import { getTransfer, recordTransferEvent } from "../services/transfer-events";
import { routeTransfer } from "../services/transfer-routing";
import { partnerApiReference } from "./partner-api-docs";
import {
  ErrorSchema,
  EventRefusedSchema,
  EventSchema,
  NoRouteSchema,
  PingSchema,
  RateLimitedSchema,
  RouteAnswerSchema,
  SuspendedSchema,
  TransferIdSchema,
  TransferSchema,
} from "./partner-api-schemas";

export const PARTNER_API_VERSION = "1.0.0";

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

const ping = createRoute({
  method: "post",
  path: "/transfers",
  summary: "Ping: where should this caller go?",
  description: `Picks one eligible buyer order for the prospect and answers the number to transfer the caller to. The answer holds a slot on the order for ${ROUTE_ANSWER_TTL_SECONDS} seconds: connect within that time (and report \`connected\`) or ping again. Among eligible orders the oldest paid goes first. A buyer gets one prospect phone at most once in ${DUPLICATE_WINDOW_DAYS} days: every answer counts, including one left to expire, until you report \`no-answer\` or \`failed\` for it.`,
  security,
  request: { body: { required: true, ...json(PingSchema, "The prospect and their consent.") } },
  responses: {
    201: json(RouteAnswerSchema, "Routed: transfer the caller to `phoneNumber`."),
    409: json(
      NoRouteSchema,
      "No eligible order: none open for the state, caps reached, outside hours, a duplicate, or your daily call cap.",
    ),
    ...errors,
  },
});

const event = createRoute({
  method: "post",
  path: "/transfers/{id}/events",
  summary: "Report what happened to a routed call",
  description: `\`connected\`, \`completed\` (with \`durationSeconds\`), \`no-answer\` or \`failed\`. A completed call is billable when the caller stayed longer than ${TRANSFER_BUFFER_SECONDS} seconds and the transfer still held its slot: report \`connected\` within the answer's ${ROUTE_ANSWER_TTL_SECONDS} seconds (the slot is then held for ${CONNECTED_HOLD_SECONDS / 3600} hours) or \`completed\` within them. Later, \`connected\` and \`completed\` are recorded and answer 409 (\`EventRefused\`); the transfer is never billed. Each event type counts once per transfer: repeating it changes nothing, and an event after the call ended is recorded without effect.`,
  security,
  request: { params: TransferIdSchema, body: { required: true, ...json(EventSchema, "The event.") } },
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

const show = createRoute({
  method: "get",
  path: "/transfers/{id}",
  summary: "Read one of your transfers",
  security,
  request: { params: TransferIdSchema },
  responses: {
    200: json(TransferSchema, "The transfer."),
    404: json(ErrorSchema, "No such transfer among yours."),
    ...errors,
  },
});

export const partnerApi = new OpenAPIHono<PartnerApiBindings>({
  defaultHook: (result) => {
    if (!result.success) throw new InvalidError(result.error.issues[0]?.message ?? "The request is not valid.");
  },
});

partnerApi.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
  type: "http",
  scheme: "bearer",
  description: "An API key created in your partner portal (/partner), sent as `Authorization: Bearer <key>`.",
});

partnerApi.use((c, next) => {
  c.header("Cache-Control", "no-store");
  return next();
});
partnerApi.use(bodyLimit({ maxSize: 16 * 1024, onError: (c) => errorJson(c, 413, "The request is too large.") }));
// "/transfers/*" also matches "/transfers" itself.
partnerApi.use("/transfers/*", requirePartnerKey);

partnerApi.openapi(ping, async (c) => {
  const answer = await routeTransfer(c.env, c.get("partnerKey"), c.req.valid("json"));
  return c.json(answer, 201);
});

partnerApi.openapi(event, async (c) => {
  const { id } = c.req.valid("param");
  const view = await recordTransferEvent(c.env, c.get("partnerKey").partnerId, id, c.req.valid("json"), {
    siteOrigin: siteOrigin(c.env, c.req.url),
  });
  return c.json(view, 200);
});

partnerApi.openapi(show, async (c) => {
  return c.json(await getTransfer(c.env, c.get("partnerKey").partnerId, c.req.valid("param").id), 200);
});

const documentConfig = {
  openapi: "3.1.0",
  info: {
    title: "Final-expense live transfers: partner API",
    version: PARTNER_API_VERSION,
    description: `Route live calls to buyers' paid orders and report their outcome. Calls are billed when the caller stays longer than ${TRANSFER_BUFFER_SECONDS} seconds.`,
  },
  servers: [{ url: "/api/v1" }],
};

/**
 * The shop's OpenAPI 3.1 document: the partner API (generated from the zod schemas above) and, in its
 * `webhooks` section, the events buyers receive at their endpoints (src/domain/schemas/webhooks.ts).
 */
export function partnerApiDocument() {
  const document = partnerApi.getOpenAPI31Document(documentConfig);
  const { webhooks, components } = webhooksOpenApi();
  return {
    ...document,
    webhooks,
    components: { ...document.components, schemas: { ...document.components?.schemas, ...components.schemas } },
  };
}

partnerApi.get("/openapi.json", (c) => c.json(partnerApiDocument()));
// The reference page reads the same document through its own narrower view of OpenAPI.
partnerApi.get("/docs", (c) =>
  c.html(partnerApiReference(partnerApiDocument() as unknown as Parameters<typeof partnerApiReference>[0])),
);

partnerApi.all("*", () => {
  throw new NotFoundError("Not found. The partner API reference is at /api/v1/docs.");
});

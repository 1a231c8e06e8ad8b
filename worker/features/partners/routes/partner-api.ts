/**
 * The partner API, /api/v1: server-to-server, authenticated by a bearer API
 * key (no session cookie, no same-origin check), described by an OpenAPI document generated from the
 * zod schemas that validate it (src/features/transfers/schemas/partner-api.ts; the routes are defined in
 * ./partner-api-schemas.ts). Errors are `{ message }` (plus `reason` on a 409 without a route).
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { TRANSFER_BUFFER_SECONDS } from "../../../../src/features/transfers/index";
import { webhooksOpenApi } from "../../../../src/features/webhooks/index";
import { InvalidError, NotFoundError } from "../../../errors";
import { errorJson } from "../../../http";
import { siteOrigin } from "../../../services/mail";
import { takeCallback } from "../../callbacks/index";
import { getTransfer, recordTransferEvent, routeTransfer } from "../../transfers/index";
import { type PartnerApiBindings, requirePartnerKey } from "../middleware/partner-key";
import { partnerApiReference } from "./partner-api-reference";
import { event, ping, postCallback, show } from "./partner-api-schemas";

const PARTNER_API_VERSION = "1.0.0";

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
partnerApi.use("/callbacks", requirePartnerKey);

partnerApi.openapi(ping, async (c) => {
  const answer = await routeTransfer(c.var.deps, c.get("partnerKey"), c.req.valid("json"));
  return c.json(answer, 201);
});

partnerApi.openapi(event, async (c) => {
  const { id } = c.req.valid("param");
  const view = await recordTransferEvent(c.var.deps, c.get("partnerKey").partnerId, id, c.req.valid("json"), {
    siteOrigin: siteOrigin(c.var.deps, c.req.url),
  });
  return c.json(view, 200);
});

partnerApi.openapi(postCallback, async (c) => {
  const accepted = await takeCallback(c.var.deps, c.req.valid("json"), {
    source: "partner",
    owner: c.get("partnerKey"),
  });
  return c.json(accepted, 201);
});

partnerApi.openapi(show, async (c) => {
  return c.json(await getTransfer(c.var.deps, c.get("partnerKey").partnerId, c.req.valid("param").id), 200);
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
 * `webhooks` section, the events buyers receive at their endpoints (src/features/webhooks/schemas/webhooks.ts).
 */
function partnerApiDocument() {
  const document = partnerApi.getOpenAPI31Document(documentConfig);
  const { webhooks, components } = webhooksOpenApi();
  return {
    ...document,
    webhooks,
    components: { ...document.components, schemas: { ...document.components?.schemas, ...components.schemas } },
  };
}

partnerApi.get("/openapi.json", (c) => c.json(partnerApiDocument()));
// The reference UI loads that document in the browser.
partnerApi.get("/docs", partnerApiReference);

partnerApi.all("*", () => {
  throw new NotFoundError("Not found. The partner API reference is at /api/v1/docs.");
});

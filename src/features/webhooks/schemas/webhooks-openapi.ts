/**
 * The OpenAPI 3.1 `webhooks` section for the buyer webhooks, generated from the zod schemas that build
 * the events (./webhooks.ts). OpenAPI 3.1 schemas are JSON Schema 2020-12, which is what zod's own
 * `z.toJSONSchema` writes, so no other generator is needed. Merge the result into a 3.1 document:
 *
 *   const { webhooks, components } = webhooksOpenApi();
 *   const document = { ...app.getOpenAPI31Document(config), webhooks };
 *   document.components = { ...document.components, schemas: { ...document.components?.schemas, ...components.schemas } };
 */

import { z } from "../../../domain/schemas/zod.ts";
import {
  ALL_WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENT_DESCRIPTIONS,
  WEBHOOK_MAX_BODY_BYTES,
  WEBHOOK_SIGNATURE_TOLERANCE_SECONDS,
  WEBHOOK_TIMEOUT_MS,
} from "../../webhook-outbox/index.ts";
import { WEBHOOK_SIGNATURE_HEADER } from "../signature.ts";
import { WEBHOOK_SCHEMA_NAMES, webhookSchemaRegistry } from "./webhooks.ts";

type JsonSchema = Record<string, unknown>;

interface WebhookOperation {
  summary: string;
  description: string;
  operationId: string;
  parameters: { name: string; in: "header"; required: true; description: string; schema: JsonSchema }[];
  requestBody: { required: true; content: { "application/json": { schema: { $ref: string } } } };
  responses: Record<string, { description: string }>;
}

export interface WebhooksOpenApi {
  /** The document's `webhooks`: one path item (`post`) per event type. */
  webhooks: Record<string, { post: WebhookOperation }>;
  /** Schemas to add to the document's `components.schemas`; the webhooks refer to them. */
  components: { schemas: Record<string, JsonSchema> };
}

const ref = (name: string) => `#/components/schemas/${name}`;

/**
 * Drops what does not belong in a published document: the per-schema `$schema`/`$id`, the date-time
 * regex zod adds beside `format: date-time`, the safe-integer bounds of `z.int()`, and
 * `additionalProperties: false` (receivers must accept fields added later in the same API version).
 */
function tidy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tidy);
  if (schema === null || typeof schema !== "object") return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema" || key === "$id") continue;
    if (key === "additionalProperties" && value === false) continue;
    if (key === "pattern" && (schema as JsonSchema).format === "date-time") continue;
    // z.int()'s safe-integer bounds say nothing a reader needs.
    if (
      (key === "maximum" && value === Number.MAX_SAFE_INTEGER) ||
      (key === "minimum" && value === Number.MIN_SAFE_INTEGER)
    )
      continue;
    out[key] = tidy(value);
  }
  return out;
}

const SIGNATURE_DESCRIPTION = `\`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\`, keyed by the endpoint's signing secret. After a rotation a second \`v1=\` (the old secret) is sent for 24 hours. Refuse a timestamp more than ${WEBHOOK_SIGNATURE_TOLERANCE_SECONDS / 60} minutes from your clock.`;

/** The `webhooks` section and the component schemas it needs. */
export function webhooksOpenApi(): WebhooksOpenApi {
  const generated = z.toJSONSchema(webhookSchemaRegistry, { target: "draft-2020-12", uri: ref }) as {
    schemas: Record<string, JsonSchema>;
  };
  const schemas = Object.fromEntries(
    Object.entries(generated.schemas).map(([name, schema]) => [name, tidy(schema) as JsonSchema]),
  );
  const webhooks = Object.fromEntries(
    ALL_WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: type,
          description: `${WEBHOOK_EVENT_DESCRIPTIONS[type]} Sent as a POST of at most ${WEBHOOK_MAX_BODY_BYTES / 1024} KB of JSON to each endpoint subscribed to \`${type}\`.`,
          operationId: `webhook_${type.replace(/\./g, "_")}`,
          parameters: [
            {
              name: WEBHOOK_SIGNATURE_HEADER,
              in: "header" as const,
              required: true as const,
              description: SIGNATURE_DESCRIPTION,
              schema: { type: "string" },
            },
          ],
          requestBody: {
            required: true as const,
            content: { "application/json": { schema: { $ref: ref(WEBHOOK_SCHEMA_NAMES[type]) } } },
          },
          responses: {
            "2XX": { description: `Delivered: any 2xx answer within ${WEBHOOK_TIMEOUT_MS / 1000} seconds.` },
            default: {
              description:
                "Anything else (another status, a redirect, no answer in time) fails the attempt; it is retried with back-off for 3 days.",
            },
          },
        },
      },
    ]),
  );
  return { webhooks, components: { schemas } };
}

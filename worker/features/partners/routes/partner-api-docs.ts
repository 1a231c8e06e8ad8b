/** A readable reference page for partners (and buyers' webhooks), rendered by the Worker from the shop's OpenAPI document. */
import { html, raw } from "hono/html";

type Schema = {
  $ref?: string;
  /** OpenAPI 3.1 (JSON Schema) may list several, e.g. ["string", "null"]. */
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  description?: string;
  example?: unknown;
  nullable?: boolean;
  format?: string;
};
type Operation = {
  summary?: string;
  description?: string;
  requestBody?: { content: Record<string, { schema: Schema }> };
  parameters?: { name: string; in: string }[];
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
};
interface Document {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
  /** OpenAPI 3.1: requests the shop sends (buyer webhooks), by event type. */
  webhooks?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

const refName = (schema: Schema | undefined) => schema?.$ref?.split("/").pop();

function typeOf(schema: Schema): string {
  const name = refName(schema);
  if (name) return name;
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.oneOf ?? schema.anyOf) return (schema.oneOf ?? schema.anyOf ?? []).map(typeOf).join(" | ");
  if (schema.type === "array" && schema.items) return `${typeOf(schema.items)}[]`;
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "object");
  return `${type}${schema.format ? ` (${schema.format})` : ""}${schema.nullable ? " | null" : ""}`;
}

/** Field rows of an object schema, nested objects flattened as a.b. */
function rows(schema: Schema, prefix = ""): { name: string; type: string; required: boolean; about: string }[] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, field]) => {
    const name = `${prefix}${key}`;
    const about = [field.description, field.example !== undefined ? `Example: ${JSON.stringify(field.example)}` : ""]
      .filter(Boolean)
      .join(" ");
    const row = { name, type: typeOf(field), required: schema.required?.includes(key) ?? false, about };
    return field.type === "object" && field.properties ? [row, ...rows(field, `${name}.`)] : [row];
  });
}

function schemaSection(name: string, schema: Schema) {
  const variants = schema.oneOf ?? schema.anyOf;
  const parts = variants ?? [schema];
  return html`<section id="schema-${name}">
    <h3>${name}</h3>
    ${schema.description ? html`<p>${schema.description}</p>` : ""}
    ${parts.map(
      (part, index) => html`${variants ? html`<p>Variant ${index + 1}</p>` : ""}
        <table>
          <thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">About</th></tr></thead>
          <tbody>
            ${rows(part).map(
              (row) =>
                html`<tr><td><code>${row.name}</code></td><td>${row.type}</td><td>${row.required ? "yes" : "no"}</td><td>${row.about}</td></tr>`,
            )}
          </tbody>
        </table>`,
    )}
  </section>`;
}

function operationSection(method: string, path: string, operation: Operation) {
  const body = operation.requestBody?.content["application/json"]?.schema;
  return html`<section>
    <h3><code>${method.toUpperCase()} /api/v1${path}</code></h3>
    <p><strong>${operation.summary ?? ""}</strong></p>
    ${operation.description ? html`<p>${operation.description}</p>` : ""}
    ${body ? html`<p>Body: <a href="#schema-${refName(body)}">${refName(body)}</a> (JSON)</p>` : ""}
    <table>
      <thead><tr><th scope="col">Status</th><th scope="col">Meaning</th><th scope="col">Body</th></tr></thead>
      <tbody>
        ${Object.entries(operation.responses).map(([status, response]) => {
          const name = refName(response.content?.["application/json"]?.schema);
          return html`<tr><td>${status}</td><td>${response.description}</td><td>${name ? html`<a href="#schema-${name}">${name}</a>` : ""}</td></tr>`;
        })}
      </tbody>
    </table>
  </section>`;
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#111}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}th,td{border:1px solid #ccc;padding:.35rem .5rem;text-align:left;vertical-align:top}
pre{background:#f4f4f5;padding:1rem;overflow-x:auto}code{font-size:.95em}h3{margin-top:2rem}`;

function webhookSection(type: string, operation: Operation) {
  const body = operation.requestBody?.content["application/json"]?.schema;
  return html`<section>
    <h3><code>${type}</code></h3>
    ${operation.description ? html`<p>${operation.description}</p>` : ""}
    ${body ? html`<p>Body: <a href="#schema-${refName(body)}">${refName(body)}</a> (JSON)</p>` : ""}
  </section>`;
}

export function partnerApiReference(document: Document) {
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => operationSection(method, path, operation)),
  );
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${document.info.title}</title>
    <style>${raw(STYLE)}</style>
  </head>
  <body>
    <main>
      <h1>${document.info.title}</h1>
      <p>Version ${document.info.version}. ${document.info.description ?? ""}</p>
      <h2>Getting started</h2>
      <p>Create an API key in your partner portal (<a href="/partner">/partner</a>); it is shown once. Send it with every request as <code>Authorization: Bearer &lt;key&gt;</code> and JSON bodies with <code>Content-Type: application/json</code>. Errors answer <code>{ "message": "…" }</code>. The machine-readable document is <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
      <pre><code>curl -X POST "$SHOP/api/v1/transfers" \\
  -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\
  -d '{"prospect":{"firstName":"Mary","lastName":"Johnson","phone":"2145551000","state":"TX"},
       "consent":{"optInAt":"2026-03-04T14:55:00Z","optInUrl":"https://example.com/quote"}}'

curl -X POST "$SHOP/api/v1/transfers/$TRANSFER_ID/events" \\
  -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \\
  -d '{"type":"completed","durationSeconds":185}'</code></pre>
      <h2>Endpoints</h2>
      ${operations}
      ${
        document.webhooks
          ? html`<h2 id="webhooks">Webhooks (buyers)</h2>
              <p>Buyers add HTTPS endpoints under Dashboard → My Account → Integrations and receive these events as signed POSTs: <code>Webhook-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex HMAC-SHA256 of "t.body"&gt;</code>, keyed by the endpoint's signing secret. Check it on the raw body and refuse a timestamp more than 5 minutes from your clock. Any 2xx within 10 seconds counts as delivered; anything else is retried with back-off for 3 days. Events carry an <code>id</code>: skip ids you have handled.</p>
              ${Object.entries(document.webhooks).flatMap(([type, methods]) =>
                Object.values(methods).map((operation) => webhookSection(type, operation)),
              )}`
          : ""
      }
      <h2>Schemas</h2>
      ${Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => schemaSection(name, schema))}
    </main>
  </body>
</html>`;
}

/**
 * Decision 0022: which folder may import which. Reads the import statements (static, dynamic, re-exports)
 * of every .ts/.tsx/.astro file under src/ and worker/ (tests left out) and fails on an edge the picture
 * forbids. Decision 0077 adds the feature folders: a feature reaches another only through its index.ts, the
 * kernel reaches none, and no file imports itself back through others.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { circles, FEATURE, type ImportEdge, importsOf, ROOT, sourceFiles } from "./imports";

/**
 * The layer an edge end belongs to: `src/<folder>`, `worker/<folder>`, or `worker/` for its top-level files.
 * A feature folder (decision 0077) holds several layers: in `src/features/<name>/` its views/ are islands and
 * the rest is domain; in `worker/features/<name>/` its routes/ are routes, its middleware/ middleware and the
 * rest (service, SQL) services.
 */
function area(path: string): string {
  const feature = FEATURE.exec(path);
  if (feature) {
    const [, top, , inner = ""] = feature;
    if (top === "src") return /^views(\/|$)/.test(inner) ? "src/islands" : "src/domain";
    if (/^routes(\/|$)/.test(inner)) return "worker/routes";
    if (/^middleware(\/|$)/.test(inner)) return "worker/middleware";
    return "worker/services";
  }
  const [top, second, third] = path.split("/");
  if (top === "src") return `src/${second}`;
  if (top === "worker") return third === undefined ? "worker/" : `worker/${second}`;
  return top ?? path;
}

const isRelative = (to: string) => to.startsWith("src/") || to.startsWith("worker/") || !/^[@a-z]/i.test(to);

/** What each src/ folder may import from src/ (besides itself). */
const SRC_MAY_IMPORT: Record<string, readonly string[]> = {
  "src/domain": [],
  "src/config": ["src/domain"],
  "src/scripts": ["src/domain", "src/config"],
  "src/lib": ["src/domain", "src/config"],
  "src/ui": ["src/domain", "src/config", "src/lib"],
  "src/islands": ["src/domain", "src/config", "src/lib", "src/ui", "src/scripts"],
  "src/components": ["src/domain", "src/config", "src/lib", "src/ui", "src/scripts", "src/islands", "src/layouts"],
  "src/layouts": ["src/domain", "src/config", "src/lib", "src/ui", "src/scripts", "src/components", "src/styles"],
  // Astro's request middleware and the types of what it sets (decision 0032).
  "src/middleware.ts": ["src/domain"],
  "src/env.d.ts": ["src/domain"],
  "src/pages": [
    "src/domain",
    "src/config",
    "src/lib",
    "src/ui",
    "src/scripts",
    "src/islands",
    "src/components",
    "src/layouts",
    "src/styles",
  ],
};

/** Packages src/domain may use: it stays pure (no I/O, no framework) and runs in the browser and the Worker. */
const DOMAIN_PACKAGES = ["zod", "papaparse", "@oslojs/encoding"];

/**
 * Named exceptions, each one file importing one module. The server-rendered forms (login, forgot and reset
 * password; decision 0016) post to the API in-process through worker/form-posts; Astro's middleware reads
 * the session through worker/page-user (decision 0032).
 */
const ALLOWED: readonly { from: RegExp; to: string; why: string }[] = [
  { from: /^src\/pages\/[\w-]+\.astro$/, to: "worker/form-posts", why: "server-rendered form posts (0016)" },
  { from: /^src\/middleware\.ts$/, to: "worker/page-user", why: "the pages' signed-in user (0032)" },
];

/** Why the edge is forbidden, or null when the picture allows it. */
function violation(edge: ImportEdge): string | null {
  const source = area(edge.from);
  const target = isRelative(edge.to) ? area(edge.to) : null;
  if (ALLOWED.some((rule) => rule.from.test(edge.from) && edge.to.replace(/\.(ts|tsx)$/, "") === rule.to)) return null;

  if (source.startsWith("src/")) {
    if (target === null) {
      return source === "src/domain" && !DOMAIN_PACKAGES.includes(edge.to)
        ? `src/domain is pure: it may use only ${DOMAIN_PACKAGES.join(", ")}`
        : null;
    }
    if (target.startsWith("worker")) return edge.typeOnly ? null : "src/ may import worker/ only with `import type`";
    if (target === source || !target.startsWith("src/")) return null;
    const allowed = SRC_MAY_IMPORT[source];
    if (!allowed) return `${source} is not in the layering picture (decision 0022): add it there and here`;
    if (source === "src/ui" && target === "src/lib" && !edge.typeOnly)
      return "src/ui may import src/lib only for types";
    return allowed.includes(target) ? null : `${source} may not import ${target}`;
  }

  if (source.startsWith("worker")) {
    if (target === null) return null;
    if (source === "worker/routes" && edge.to.replace(/\.ts$/, "") === "src/features/orders/pricing")
      return "routes do not price: the checkout service quotes";
    if (target.startsWith("src/")) {
      return target === "src/domain" || target === "src/config"
        ? null
        : "worker/ may import only src/domain and src/config";
    }
    if (source === "worker/routes" && target === "worker/db")
      return "routes reach the database through worker/services";
    if (source === "worker/db" && target !== "worker/db") return "worker/db imports only worker/db and src/domain";
    const http = ["worker/routes", "worker/middleware", "worker/pages"];
    if (
      source === "worker/services" &&
      (http.includes(target) || /^worker\/(api|app|index|http)(\.ts)?$/.test(edge.to))
    ) {
      return "services know nothing of HTTP: no routes, middleware or the app";
    }
    if (source === "worker/middleware" && target === "worker/routes") return "middleware may not import routes";
  }
  return null;
}

/** The shared kernel (decision 0077): db, http, ui, formatting helpers. It imports no feature. */
const KERNEL =
  /^(src\/(ui|lib|config|styles|scripts)\/|worker\/(db\/(?!schema\/)|middleware\/|(http|errors|env|deps|validation)\.ts$))/;

/** Decision 0077: why the edge breaks the feature folders, or null. */
function featureViolation(edge: ImportEdge): string | null {
  const target = FEATURE.exec(edge.to.replace(/\.tsx?$/, ""));
  if (!target) return null;
  if (KERNEL.test(edge.from)) return "the kernel imports no feature";
  const source = FEATURE.exec(edge.from);
  if (!source || source[2] === target[2]) return null;
  if (target[3] === undefined || target[3] === "index") return null;
  // A feature's views have a second public face, views/index.ts, for the views of another feature only
  // (never its rules, services or the Worker: a view in the Worker would bring React there).
  if (target[3] === "views/index") {
    return source[1] === "src" && /^views\//.test(source[3] ?? "")
      ? null
      : `another feature's views/index.ts is for that feature's views only (${target[1]}/features/${target[2]}/index.ts)`;
  }
  return `another feature is reached through its index.ts only (${target[1]}/features/${target[2]}/index.ts)`;
}

describe("layering (decision 0022)", () => {
  const files = [...sourceFiles("src"), ...sourceFiles("worker")];
  const edges = files.flatMap((file) => importsOf(file, readFileSync(join(ROOT, file), "utf8")));

  it("reads the imports of every source file", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges).toContainEqual({ from: "worker/app.ts", to: "worker/api", typeOnly: false });
    expect(edges.some((edge) => edge.from.endsWith(".astro"))).toBe(true);
  });

  it("has no forbidden edge", () => {
    const broken = edges.flatMap((edge) => {
      const why = violation(edge);
      return why ? [`${edge.from} → ${edge.to}: ${why}`] : [];
    });
    expect(broken).toEqual([]);
  });
});

describe("one folder per feature (decision 0077)", () => {
  const files = [...sourceFiles("src"), ...sourceFiles("worker")];
  const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

  it("reaches another feature only through its index.ts, and the kernel reaches no feature", () => {
    expect(files.filter((file) => FEATURE.test(file)).length).toBeGreaterThan(50);
    const broken = files
      .flatMap((file) => importsOf(file, read(file)))
      .flatMap((edge) => {
        const why = featureViolation(edge);
        return why ? [`${edge.from} → ${edge.to}: ${why}`] : [];
      });
    expect(broken).toEqual([]);
  });

  it("has no circle of imports among the files of src/ and worker/", () => {
    const edges = files.flatMap((file) => importsOf(file, read(file), true));
    expect(edges.length).toBeGreaterThan(1000);
    expect(circles(edges, files)).toEqual([]);
  });

  it("has no circle even counting `import type` and lazy views: a file's types and lazily loaded parts go one way too", () => {
    const edges = files.flatMap((file) => importsOf(file, read(file)));
    expect(edges.filter((edge) => edge.typeOnly).length).toBeGreaterThan(100);
    expect(circles(edges, files, { types: true })).toEqual([]);
  });

  it.each([
    ["src/features/consent/views/ConsentRecord.tsx", "src/features/do-not-call/suppression"],
    ["worker/features/partners/partner-admin.ts", "worker/features/webhook-outbox/record.ts"],
    ["worker/features/webhooks/deliver.ts", "src/features/consent/consent"],
    ["src/ui/button.tsx", "src/features/consent/index"],
    ["worker/db/client.ts", "worker/features/webhooks/index"],
    ["src/features/returns/returns.ts", "src/features/transfers/views/index"],
    ["worker/features/returns/fulfilment.ts", "src/features/transfers/views/index.ts"],
    ["src/features/returns/views/FulfilmentTab.tsx", "src/features/transfers/views/PauseCell"],
  ])("refuses %s → %s", (from, to) => {
    expect(featureViolation({ from, to, typeOnly: false })).toEqual(expect.any(String));
  });

  it.each([
    ["src/features/consent/views/ConsentRecord.tsx", "src/features/do-not-call/index"],
    ["worker/features/webhooks/deliver.ts", "src/features/consent/index.ts"],
    ["worker/features/do-not-call/do-not-call.ts", "src/features/do-not-call/suppression"],
    ["src/pages/do-not-call.astro", "src/features/do-not-call/views/DoNotCallForm"],
    ["src/features/returns/views/FulfilmentTab.tsx", "src/features/transfers/views/index"],
  ])("allows %s → %s", (from, to) => {
    expect(featureViolation({ from, to, typeOnly: false })).toBeNull();
  });

  it("keeps the layers inside a feature (decision 0022)", () => {
    expect(violation({ from: "src/features/consent/consent.ts", to: "react", typeOnly: false })).toEqual(
      expect.any(String),
    );
    expect(
      violation({ from: "worker/features/consent/routes/consent.ts", to: "worker/db/client", typeOnly: false }),
    ).toEqual(expect.any(String));
    expect(
      violation({ from: "worker/features/consent/consent-records.ts", to: "worker/http", typeOnly: false }),
    ).toEqual(expect.any(String));
    expect(
      violation({ from: "src/features/consent/views/ConsentRecord.tsx", to: "src/ui/button", typeOnly: false }),
    ).toBeNull();
  });

  it("finds a circle, also through an index.ts, and not through `import type`", () => {
    const a = "src/features/a/x.ts";
    const b = "src/features/b/y.ts";
    const index = "src/features/b/index.ts";
    const edges = [
      { from: a, to: "src/features/b/index", typeOnly: false },
      { from: index, to: "src/features/b/y", typeOnly: false },
      { from: b, to: "src/features/a/x", typeOnly: false },
    ];
    expect(circles(edges, [a, b, index]).map((circle) => circle.sort())).toEqual([[index, a, b].sort()]);
    expect(circles([{ ...edges[0], typeOnly: true }, ...edges.slice(1)] as ImportEdge[], [a, b, index])).toEqual([]);
    expect(
      circles([{ ...edges[0], typeOnly: true }, ...edges.slice(1)] as ImportEdge[], [a, b, index], { types: true }),
    ).toHaveLength(1);
  });
});

describe("the layering check itself", () => {
  it("parses multi-line, type-only, inline-type, side-effect, dynamic and re-export imports", () => {
    const text = [
      'import {\n  a,\n  b,\n} from "../domain/x";',
      'import type { T } from "../../worker/api";',
      'import { type A, type B } from "../../worker/env";',
      'import { type A, c } from "../../worker/services/y";',
      'import "../styles/global.css";',
      'const V = lazy(() => import("./view"));',
      'type Api = typeof import("../../worker/api");',
      'export { z } from "./z";',
      "const s = \"import x from './not-an-import'\";",
    ].join("\n");
    expect(importsOf("src/lib/file.ts", text)).toEqual([
      { from: "src/lib/file.ts", to: "src/domain/x", typeOnly: false },
      { from: "src/lib/file.ts", to: "worker/api", typeOnly: true },
      { from: "src/lib/file.ts", to: "worker/env", typeOnly: true },
      { from: "src/lib/file.ts", to: "worker/services/y", typeOnly: false },
      { from: "src/lib/file.ts", to: "src/lib/z", typeOnly: false },
      { from: "src/lib/file.ts", to: "src/styles/global.css", typeOnly: false },
      { from: "src/lib/file.ts", to: "src/lib/view", typeOnly: false },
      { from: "src/lib/file.ts", to: "worker/api", typeOnly: true },
    ]);
  });

  it.each([
    ["src/features/orders/pricing.ts", "src/lib/api", false],
    ["src/features/orders/pricing.ts", "react", false],
    ["src/islands/Checkout.tsx", "worker/features/orders/orders", false],
    ["src/lib/api.ts", "src/islands/AppProviders", false],
    ["src/ui/button.tsx", "src/islands/AppProviders", false],
    ["src/ui/pager.tsx", "src/lib/query-client", false],
    ["src/islands/Checkout.tsx", "src/pages/index.astro", false],
    ["worker/routes/buyer.ts", "worker/db/client", false],
    ["worker/routes/buyer.ts", "worker/db/schema", true],
    ["worker/features/orders/routes/surveys.ts", "src/features/orders/pricing", false],
    ["worker/features/orders/orders.ts", "worker/features/orders/routes/payments", false],
    ["worker/features/orders/orders.ts", "worker/http", false],
    ["worker/db/schema/orders.ts", "worker/features/orders/orders", false],
    ["worker/features/orders/orders.ts", "src/lib/api", true],
  ])("refuses %s → %s (type-only: %s)", (from, to, typeOnly) => {
    expect(violation({ from, to, typeOnly })).toEqual(expect.any(String));
  });

  it.each([
    ["src/islands/Checkout.tsx", "worker/api", true],
    ["src/features/aged-leads/leads.ts", "zod", false],
    ["src/pages/login.astro", "worker/form-posts", false],
    ["worker/routes/buyer.ts", "worker/features/orders/orders", false],
    ["worker/features/orders/orders.ts", "worker/db/client", false],
    ["worker/features/orders/orders.ts", "src/features/orders/pricing", false],
    ["worker/features/orders/checkout.ts", "src/features/orders/pricing", false],
    ["src/ui/query-view.tsx", "src/lib/query-client", true],
  ])("allows %s → %s (type-only: %s)", (from, to, typeOnly) => {
    expect(violation({ from, to, typeOnly })).toBeNull();
  });
});

/**
 * Decision 0039: one way to the database per request. `database()` is built only by worker/deps.ts
 * (createDeps), every exported service takes `deps: Deps` first (never a D1Database, Database or Env),
 * and routes never prepare SQL.
 */
const DATABASE_CALL = /\bdatabase\(/;
const PREPARE_CALL = /\.prepare\(/;
const SERVICE_WITH_OLD_HANDLE =
  /^export (?:async )?function\*? ?\w+(?:<[^>]*>)?\(\s*\w+: (?:D1Database|Database|Env)\b|^export const \w+ = (?:async )?\(\s*\w+: (?:D1Database|Database|Env)\b/m;

/** Why the file breaks decision 0039, or null. */
function depsViolation(file: string, text: string): string | null {
  if (file !== "worker/deps.ts" && file !== "worker/db/client.ts" && DATABASE_CALL.test(text)) {
    return "calls database(): take the request's deps (worker/deps.ts) instead";
  }
  if (area(file) === "worker/routes" && PREPARE_CALL.test(text)) return "a route prepares SQL: call a service";
  if (area(file) === "worker/services" && SERVICE_WITH_OLD_HANDLE.test(text)) {
    return "an exported service takes a D1Database, Database or Env first: take `deps: Deps`";
  }
  return null;
}

describe("one way to the database (decision 0039)", () => {
  it("no file but worker/deps.ts builds the drizzle handle, no route prepares SQL, services take deps first", () => {
    const broken = sourceFiles("worker").flatMap((file) => {
      const why = depsViolation(file, readFileSync(join(ROOT, file), "utf8"));
      return why ? [`${file}: ${why}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it.each([
    ["worker/features/orders/orders.ts", "const db = database(env.DB);"],
    ["worker/features/partners/middleware/partner-key.ts", "const db = database(c.env.DB);"],
    ["worker/routes/buyer.ts", 'await c.env.DB.prepare("SELECT 1").first();'],
    ["worker/services/users.ts", "export async function listUsers(db: D1Database): Promise<PublicUser[]> {"],
    ["worker/features/orders/orders.ts", "export async function expireReservations(env: Env, now = Date.now()) {"],
    ["worker/features/aged-leads/leads.ts", "export function releaseLeadsStatement(db: Database, orderId: string) {"],
    ["worker/services/rate-limiter.ts", "export const countsInBinding = (env: Env, rule: RateRule) => true;"],
  ])("refuses %s containing %s", (file, text) => {
    expect(depsViolation(file, text)).toEqual(expect.any(String));
  });

  it.each([
    ["worker/deps.ts", "return { db: database(env.DB), env, now };"],
    ["worker/features/orders/orders.ts", "export async function expireReservations(deps: Deps): Promise<number> {"],
    ["worker/features/aged-leads/imports.ts", "const db = env.DB; // raw D1\nawait db.prepare(SQL).run();"],
    ["worker/services/mail.ts", "const isDevelopment = (env: Env) => env.APP_ENV === 'development';"],
  ])("allows %s containing %s", (file, text) => {
    expect(depsViolation(file, text)).toBeNull();
  });
});

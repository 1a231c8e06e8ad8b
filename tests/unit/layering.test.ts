/**
 * Decision 0022: which folder may import which. Reads the import statements (static, dynamic, re-exports)
 * of every .ts/.tsx/.astro file under src/ and worker/ and fails on an edge the picture forbids.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(new URL(import.meta.url).pathname), "../..");

interface ImportEdge {
  /** The importing file, relative to the repository root (posix). */
  from: string;
  /** A repository path for relative imports, else the package name as written. */
  to: string;
  typeOnly: boolean;
}

/** Import clauses hold only names, braces, commas, `*`, `as` and `type`: the match cannot run past one statement. */
const STATIC = /^[ \t]*(import|export)\s+(type\s+)?([\w*{}\s,$]*?)\s*from\s*["']([^"']+)["']/gm;
const SIDE_EFFECT = /^[ \t]*import\s*["']([^"']+)["']/gm;
const DYNAMIC = /(typeof\s+)?import\(\s*["']([^"']+)["']\s*\)/g;

/** `{ type A, type B }` with no default or namespace import is as type-only as `import type`. */
function clauseIsTypeOnly(clause: string): boolean {
  const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
  if (!braces?.[1]) return false;
  const names = braces[1]
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((name) => name.startsWith("type "));
}

function importsOf(file: string, text: string): ImportEdge[] {
  const resolve = (spec: string) =>
    spec.startsWith(".") ? posix.normalize(posix.join(posix.dirname(file), spec)) : spec;
  const edges: ImportEdge[] = [];
  for (const [, , typeWord, clause, spec] of text.matchAll(STATIC)) {
    edges.push({ from: file, to: resolve(spec ?? ""), typeOnly: Boolean(typeWord) || clauseIsTypeOnly(clause ?? "") });
  }
  for (const [, spec] of text.matchAll(SIDE_EFFECT))
    edges.push({ from: file, to: resolve(spec ?? ""), typeOnly: false });
  for (const [, typeOf, spec] of text.matchAll(DYNAMIC)) {
    edges.push({ from: file, to: resolve(spec ?? ""), typeOnly: Boolean(typeOf) });
  }
  return edges;
}

/** The folder an edge end belongs to: `src/<folder>`, `worker/<folder>`, or `worker/` for its top-level files. */
function area(path: string): string {
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
    if (source === "worker/routes" && edge.to.replace(/\.ts$/, "") === "src/domain/pricing")
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

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|astro)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split("\\").join("/"));
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
    ["src/domain/pricing.ts", "src/lib/api", false],
    ["src/domain/pricing.ts", "react", false],
    ["src/islands/Checkout.tsx", "worker/services/orders", false],
    ["src/lib/api.ts", "src/islands/AppProviders", false],
    ["src/ui/button.tsx", "src/islands/AppProviders", false],
    ["src/ui/pager.tsx", "src/lib/query", false],
    ["src/islands/Checkout.tsx", "src/pages/index.astro", false],
    ["worker/routes/buyer.ts", "worker/db/client", false],
    ["worker/routes/buyer.ts", "worker/db/schema", true],
    ["worker/routes/surveys.ts", "src/domain/pricing", false],
    ["worker/services/orders.ts", "worker/routes/payments", false],
    ["worker/services/orders.ts", "worker/http", false],
    ["worker/db/schema/orders.ts", "worker/services/orders", false],
    ["worker/services/orders.ts", "src/lib/api", true],
  ])("refuses %s → %s (type-only: %s)", (from, to, typeOnly) => {
    expect(violation({ from, to, typeOnly })).toEqual(expect.any(String));
  });

  it.each([
    ["src/islands/Checkout.tsx", "worker/api", true],
    ["src/domain/leads.ts", "zod", false],
    ["src/pages/login.astro", "worker/form-posts", false],
    ["worker/routes/buyer.ts", "worker/services/orders", false],
    ["worker/services/orders.ts", "worker/db/client", false],
    ["worker/services/orders.ts", "src/domain/pricing", false],
    ["worker/services/checkout.ts", "src/domain/pricing", false],
    ["src/ui/query-view.tsx", "src/lib/query", true],
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
  if (file.startsWith("worker/routes/") && PREPARE_CALL.test(text)) return "a route prepares SQL: call a service";
  if (file.startsWith("worker/services/") && SERVICE_WITH_OLD_HANDLE.test(text)) {
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
    ["worker/services/orders.ts", "const db = database(env.DB);"],
    ["worker/features/partners/middleware/partner-key.ts", "const db = database(c.env.DB);"],
    ["worker/routes/buyer.ts", 'await c.env.DB.prepare("SELECT 1").first();'],
    ["worker/services/users.ts", "export async function listUsers(db: D1Database): Promise<PublicUser[]> {"],
    ["worker/services/orders.ts", "export async function expireReservations(env: Env, now = Date.now()) {"],
    ["worker/services/leads.ts", "export function releaseLeadsStatement(db: Database, orderId: string) {"],
    ["worker/services/rate-limiter.ts", "export const countsInBinding = (env: Env, rule: RateRule) => true;"],
  ])("refuses %s containing %s", (file, text) => {
    expect(depsViolation(file, text)).toEqual(expect.any(String));
  });

  it.each([
    ["worker/deps.ts", "return { db: database(env.DB), env, now };"],
    ["worker/services/orders.ts", "export async function expireReservations(deps: Deps): Promise<number> {"],
    ["worker/services/imports.ts", "const db = env.DB; // raw D1\nawait db.prepare(SQL).run();"],
    ["worker/services/mail.ts", "const isDevelopment = (env: Env) => env.APP_ENV === 'development';"],
  ])("allows %s containing %s", (file, text) => {
    expect(depsViolation(file, text)).toBeNull();
  });
});

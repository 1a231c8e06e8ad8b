/**
 * The import statements of the source files, read for the layering tests (decisions 0022, 0077): static,
 * dynamic and re-exports, each as an edge from a file to a repository path or a package.
 */
import { readdirSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";

export const ROOT = join(dirname(new URL(import.meta.url).pathname), "../..");

/** `src/features/<name>/<inner>` or `worker/features/<name>/<inner>` (decision 0077). */
export const FEATURE = /^(src|worker)\/features\/([\w-]+)(?:\/(.*))?$/;

export interface ImportEdge {
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

/** Every import of a file; `staticOnly` leaves out `import()`, which loads a module later (a lazy view). */
export function importsOf(file: string, text: string, staticOnly = false): ImportEdge[] {
  const resolve = (spec: string) =>
    spec.startsWith(".") ? posix.normalize(posix.join(posix.dirname(file), spec)) : spec;
  const edges: ImportEdge[] = [];
  for (const [, , typeWord, clause, spec] of text.matchAll(STATIC)) {
    edges.push({ from: file, to: resolve(spec ?? ""), typeOnly: Boolean(typeWord) || clauseIsTypeOnly(clause ?? "") });
  }
  for (const [, spec] of text.matchAll(SIDE_EFFECT))
    edges.push({ from: file, to: resolve(spec ?? ""), typeOnly: false });
  if (staticOnly) return edges;
  for (const [, typeOf, spec] of text.matchAll(DYNAMIC)) {
    edges.push({ from: file, to: resolve(spec ?? ""), typeOnly: Boolean(typeOf) });
  }
  return edges;
}

/** A feature's tests sit in its test/ folder (decision 0077): they are no layer. */
const isTest = (file: string) => /(^|\/)test\/|\.test\.tsx?$/.test(file);

/** The .ts, .tsx and .astro files under a folder, tests left out, as repository paths. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|astro)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .filter((file) => !isTest(file));
}

/**
 * The files that import each other in a loop, given their static imports: `import type` is erased and a lazy
 * `import()` runs after both modules have loaded, so neither is followed (with `types`, type-only edges are
 * followed too, and lazy ones are followed when `edges` holds them). Tarjan's strongly connected
 * components; a component of two files or more is a circle.
 */
export function circles(
  edges: readonly ImportEdge[],
  files: readonly string[],
  { types = false }: { types?: boolean } = {},
): string[][] {
  const known = new Set(files);
  const next = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const edge of edges) {
    if (edge.typeOnly && !types) continue;
    const to = [edge.to, `${edge.to}.ts`, `${edge.to}.tsx`, `${edge.to}/index.ts`].find((path) => known.has(path));
    if (to) next.get(edge.from)?.push(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) visit(to);
      if (stack.includes(to)) low.set(file, Math.min(low.get(file) ?? 0, low.get(to) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = top === file ? undefined : stack.pop()) component.push(top);
    if (component.length > 1) found.push(component);
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found;
}

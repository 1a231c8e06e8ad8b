/**
 * The drizzle schema is a folder of one file per feature (docs/decisions/0073-schema-folder.md): its files
 * import each other only down one order, so no two of them form a circle, and only index.ts re-exports them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const FOLDER = join(dirname(new URL(import.meta.url).pathname), "../../worker/db/schema");
const SIBLING = /from\s*["']\.\/([\w-]+)(?:\.ts)?["']/g;

/** Each schema file (name without `.ts`) and the sibling files it imports. */
function siblingImports(): Map<string, string[]> {
  const files = readdirSync(FOLDER).filter((name) => name.endsWith(".ts"));
  return new Map(
    files.map((file) => [
      file.replace(/\.ts$/, ""),
      [...readFileSync(join(FOLDER, file), "utf8").matchAll(SIBLING)].map((match) => match[1] ?? ""),
    ]),
  );
}

/** One circle of imports, as `a → b → a`, or null when there is none. */
function findCircle(graph: Map<string, string[]>): string | null {
  const done = new Set<string>();
  const visit = (file: string, path: string[]): string | null => {
    if (path.includes(file)) return [...path.slice(path.indexOf(file)), file].join(" → ");
    if (done.has(file)) return null;
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next, [...path, file]);
      if (circle) return circle;
    }
    done.add(file);
    return null;
  };
  for (const file of graph.keys()) {
    const circle = visit(file, []);
    if (circle) return circle;
  }
  return null;
}

describe("worker/db/schema/ (decision 0073)", () => {
  const graph = siblingImports();

  it("holds the shared columns, an index and a file per feature", () => {
    expect([...graph.keys()]).toEqual(expect.arrayContaining(["columns", "index", "accounts", "orders", "transfers"]));
    expect(graph.size).toBeGreaterThan(8);
  });

  it("has no import circle between its files", () => {
    expect(graph.get("transfers")).toEqual(expect.arrayContaining(["accounts", "orders", "partners"]));
    expect(findCircle(graph)).toBeNull();
  });

  it("re-exports every file but columns.ts from index.ts, which no schema file imports", () => {
    const features = [...graph.keys()].filter((file) => file !== "index" && file !== "columns").sort();
    expect([...(graph.get("index") ?? [])].sort()).toEqual(features);
    expect([...graph].filter(([, imports]) => imports.includes("index")).map(([file]) => file)).toEqual([]);
  });

  it("finds a circle when there is one (the check can fail)", () => {
    const circular = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
    ]);
    expect(findCircle(circular)).toBe("a → b → c → a");
    expect(
      findCircle(
        new Map([
          ["a", ["b"]],
          ["b", []],
        ]),
      ),
    ).toBeNull();
  });
});

/** The D1 database through wrangler: migrations, queries and SQL files, local or remote. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { toolEnv } from "./env.ts";
import { bin, root } from "./paths.ts";
import { run } from "./run.ts";

export interface D1Target {
  remote?: boolean;
  /** Local state folder (wrangler --persist-to); default .wrangler/state. */
  persistTo?: string;
}

function d1TargetArgs({ remote, persistTo }: D1Target): string[] {
  if (remote) return ["--remote"];
  return persistTo ? ["--local", "--persist-to", persistTo] : ["--local"];
}

/** wrangler reads the build's redirected config when there is one, else wrangler.toml. */
function configArgs(): string[] {
  return existsSync(resolve(root, ".wrangler/deploy/config.json")) ? [] : ["--config", "wrangler.toml"];
}

export function applyMigrations(target: D1Target, quiet = false): void {
  run(
    bin("wrangler"),
    ["d1", "migrations", "apply", "DB", ...d1TargetArgs(target), ...configArgs()],
    { CI: "true" },
    quiet,
  );
}

/** Runs SQL against D1 and answers the rows of the last statement. */
export function d1Query<Row>(sql: string, target: D1Target): Row[] {
  const args = ["d1", "execute", "DB", ...d1TargetArgs(target), ...configArgs(), "--json", "--command", sql];
  const result = spawnSync(bin("wrangler"), args, { cwd: root, env: toolEnv({ CI: "true" }), encoding: "utf8" });
  if (result.status !== 0) throw new Error(`wrangler d1 execute failed:\n${result.stderr || result.stdout}`);
  const statements = JSON.parse(result.stdout) as { results: Row[] }[];
  return statements.at(-1)?.results ?? [];
}

export function d1ExecuteFile(file: string, target: D1Target): void {
  run(
    bin("wrangler"),
    ["d1", "execute", "DB", ...d1TargetArgs(target), ...configArgs(), "--file", file],
    { CI: "true" },
    true,
  );
}

/** Shared plumbing for the npm scripts: quiet tool environment, wrangler calls, SQL literals. */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";

export const root = resolve(import.meta.dirname, "..");

/** No telemetry, no update checks, tool state inside the project (NOTES.md). */
export const quietToolEnv: Record<string, string> = {
  ASTRO_TELEMETRY_DISABLED: "1",
  ASTRO_DISABLE_UPDATE_CHECK: "true",
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  XDG_CONFIG_HOME: resolve(root, ".xdg"),
};

export function toolEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...quietToolEnv, ...extra };
}

/**
 * What a local `wrangler dev` runs with: wrangler.toml describes production, so local serving opts in to
 * the development environment and the simulated payment provider (which answers only on localhost).
 */
export const LOCAL_DEV_VARS: Record<string, string> = { APP_ENV: "development", ALLOW_SIMULATED_PAYMENTS: "true" };

/** `--var NAME:value` arguments for `wrangler dev`: the local variables, then `extra` over them. */
export function wranglerVarArgs(extra: Record<string, string> = {}): string[] {
  return Object.entries({ ...LOCAL_DEV_VARS, ...extra }).flatMap(([name, value]) => ["--var", `${name}:${value}`]);
}

export const bin = (name: string) => resolve(root, "node_modules", ".bin", name);

/** Runs a command (output shown, or with `quiet` only on failure); exits the process when it fails. */
export function run(command: string, args: string[], extraEnv: Record<string, string> = {}, quiet = false): void {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: quiet ? "pipe" : "inherit",
    encoding: "utf8",
    env: toolEnv(extraEnv),
  });
  if (result.status !== 0) {
    if (quiet) console.error(result.stdout, result.stderr);
    console.error(`\n✖ ${[command, ...args].join(" ")} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

export function build(): void {
  // Tests run under NODE_ENV=test, which would bundle React's development build.
  run(bin("astro"), ["build"], { NODE_ENV: "production" });
}

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

export function sqlLiteral(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "boolean") return value ? "1" : "0";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`Not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

export function insertSql(table: string, columns: Record<string, string | number | boolean | null>): string {
  return `INSERT INTO ${table} (${Object.keys(columns).join(", ")}) VALUES (${Object.values(columns).map(sqlLiteral).join(", ")});`;
}

/** `--name value` pairs and bare `--flag`s. */
export function parseFlags(argv: string[]): Map<string, string | true> {
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (!arg.startsWith("--")) throw new Error(`Unexpected argument: ${arg}`);
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith("--")) {
      flags.set(arg.slice(2), next);
      i++;
    } else flags.set(arg.slice(2), true);
  }
  return flags;
}

/** Running the project's tools from the npm scripts. */
import { spawnSync } from "node:child_process";
import { toolEnv } from "./env.ts";
import { bin, root } from "./paths.ts";

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

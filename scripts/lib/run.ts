/** Running the project's tools from the npm scripts. */
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { API_REFERENCE_SCRIPT, VENDOR_PREFIX } from "../../src/config/api-reference.ts";
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
  copyApiReferenceScript();
}

/** `build()` in a child process while the caller goes on (its output shown as it comes); rejects if it fails. */
export function buildInBackground(): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(bin("astro"), ["build"], {
      cwd: root,
      stdio: "inherit",
      env: toolEnv({ NODE_ENV: "production" }),
    });
    child.on("error", fail);
    child.on("exit", (code, signal) => {
      if (code !== 0) return fail(new Error(`astro build failed (exit ${code ?? signal})`));
      copyApiReferenceScript();
      done();
    });
  });
}

/**
 * The partner API reference's UI script, served from the shop's own assets rather than a CDN
 * (docs/decisions/0081): @scalar/api-reference's single-file standalone bundle. Its name carries its
 * version, so browsers keep it for a year, as the Cloudflare adapter's `_headers` rule does for /_astro/*.
 */
function copyApiReferenceScript(): void {
  const entry = fileURLToPath(import.meta.resolve("@scalar/api-reference"));
  const client = join(root, "dist", "client");
  const target = join(client, API_REFERENCE_SCRIPT);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(dirname(entry), "browser", "standalone.js"), target);
  appendFileSync(
    join(client, "_headers"),
    `\n${VENDOR_PREFIX}*\n  Cache-Control: public, max-age=31536000, immutable\n`,
  );
}

/** One step of a gate: what it is called, and the command that runs it. */
export interface Step {
  title: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** How a step went: its title, whether it passed, and how long it took. */
export interface StepResult {
  title: string;
  ok: boolean;
  seconds: number;
}

const secondsSince = (start: number) => (performance.now() - start) / 1000;

/** Runs a step with its output shown as it comes; answers how it went (it does not exit). */
export function runStep({ title, command, args, env = {} }: Step): StepResult {
  console.log(`\n▶ ${title}`);
  const start = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: toolEnv(env) });
  const ok = result.status === 0;
  if (!ok) console.error(`\n✖ ${title} failed (exit ${result.status ?? result.signal})`);
  return { title, ok, seconds: secondsSince(start) };
}

/**
 * Runs the steps at the same time as child processes (each of them mostly uses one core), each one's output
 * kept apart and printed under its title when it ends; answers how each went, in the steps' order.
 */
export async function runConcurrently(steps: Step[]): Promise<StepResult[]> {
  // Piped output is not a terminal: tools that colour for one keep colouring when the gate's is one.
  const colour: Record<string, string> = process.stdout.isTTY ? { FORCE_COLOR: "1" } : {};
  const start = performance.now();
  return Promise.all(
    steps.map(
      ({ title, command, args, env = {} }) =>
        new Promise<StepResult>((resolve) => {
          const child = spawn(command, args, {
            cwd: root,
            stdio: ["ignore", "pipe", "pipe"],
            env: toolEnv({ ...colour, ...env }),
          });
          const output: Buffer[] = [];
          child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
          child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
          let finished = false;
          const finish = (ok: boolean, why: string) => {
            if (finished) return;
            finished = true;
            const seconds = secondsSince(start);
            console.log(`\n▶ ${title} (${seconds.toFixed(1)} s, ${ok ? "ok" : "failed"})`);
            process.stdout.write(Buffer.concat(output));
            if (!ok) console.error(`\n✖ ${title} failed (${why})`);
            resolve({ title, ok, seconds });
          };
          child.on("error", (error) => finish(false, error.message));
          child.on("close", (code, signal) => finish(code === 0, `exit ${code ?? signal}`));
        }),
    ),
  );
}

/** The table `npm test` ends with: every step's time and outcome, and the whole run's time. */
export function printTimes(results: StepResult[], totalSeconds: number): void {
  const width = Math.max(5, ...results.map((r) => r.title.length));
  const line = (stage: string, seconds: string, outcome: string) =>
    console.log(`${stage.padEnd(width)}  ${seconds.padStart(7)}  ${outcome}`);
  console.log("");
  line("Stage", "Seconds", "Result");
  for (const { title, seconds, ok } of results) line(title, seconds.toFixed(1), ok ? "ok" : "failed");
  line("Total (wall clock)", totalSeconds.toFixed(1), results.every((r) => r.ok) ? "ok" : "failed");
}

/** Serves the built app (scripts/serve.ts) on a free port against its own migrated, seeded local state. */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { toolEnv } from "./lib/env.ts";
import { applyLocalMigrations, withLocalD1 } from "./lib/local-d1.ts";
import { root } from "./lib/paths.ts";
import { seedDatabaseIfEmpty } from "./seed.ts";

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolvePort(address.port) : reject(new Error("no free port")),
      );
    });
  });
}

async function waitUntilReady(url: string, server: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The local server exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Server at ${url} did not become ready`);
}

export interface LocalServer {
  baseURL: string;
  /** The local state folder (for `wrangler d1 execute --persist-to`). */
  persistTo: string;
  /** The server's console output (local mail, with its reset links, is printed there). */
  logFile: string;
  stop(): void;
}

export interface LocalServerOptions {
  /**
   * Runs on the migrated, seeded state before the server opens it (e.g. to write bench data, or to wait for
   * a build that ran meanwhile).
   */
  beforeStart?: (persistTo: string) => void | Promise<void>;
  /**
   * Cron expressions to fire. None by default: the browser tests and the bench measure requests, and a
   * daily summary landing in the outbox mid-test would change what a test reads (`npm start` fires the
   * configured ones; tests/e2e/local-server.spec.ts checks that they run).
   */
  crons?: string[];
}

/** `stateName` names a folder under .wrangler that is wiped first, so every run starts from the seed. */
export async function startLocalServer(
  stateName: string,
  extraVars: Record<string, string> = {},
  options: LocalServerOptions = {},
): Promise<LocalServer> {
  const persistTo = resolve(root, ".wrangler", stateName);
  rmSync(persistTo, { recursive: true, force: true });
  // Migrated and seeded through one Miniflare of wrangler.toml's database (the build's redirected config names
  // the same one), so a build may run meanwhile.
  await withLocalD1(persistTo, async (d1) => {
    await applyLocalMigrations(d1);
    await seedDatabaseIfEmpty(d1);
  });
  await options.beforeStart?.(persistTo);

  const port = await freePort();
  const server = spawn(
    process.execPath,
    [
      "--experimental-strip-types",
      resolve(root, "scripts/serve.ts"),
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--persist-to",
      persistTo,
      "--vars",
      JSON.stringify(extraVars),
      "--crons",
      JSON.stringify(options.crons ?? []),
    ],
    { cwd: root, env: toolEnv(), stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  mkdirSync(persistTo, { recursive: true });
  const logFile = join(persistTo, "server.log");
  const log = createWriteStream(logFile);
  for (const stream of [server.stdout, server.stderr]) {
    stream?.on("data", (chunk) => {
      output += chunk;
      log.write(chunk);
    });
  }

  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(`${baseURL}/api/health`, server, 60_000);
  } catch (error) {
    server.kill();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return { baseURL, persistTo, logFile, stop: () => server.kill() };
}

/** Builds the app and serves it for the browser tests, from a freshly migrated and seeded local state. */
import type { TestProject } from "vitest/node";
import { build } from "../../scripts/lib/run.ts";
import { startLocalServer } from "../../scripts/local-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    persistTo: string;
    serverLog: string;
  }
}

export default async function setup(project: TestProject) {
  if (!process.env.E2E_SKIP_BUILD) build();
  const server = await startLocalServer("e2e-state");
  project.provide("baseURL", server.baseURL);
  project.provide("persistTo", server.persistTo);
  project.provide("serverLog", server.logFile);
  return () => server.stop();
}

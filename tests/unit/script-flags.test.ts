/**
 * The npm scripts' flags (node:util parseArgs, strict): each script refuses a flag it does not declare, a
 * flag without its value and a stray argument with the parser's message and exit code 2, before it builds,
 * listens or touches a database; its own validation still follows.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

function run(script: string, args: string[], loader = ["--import", "tsx"]) {
  return spawnSync(process.execPath, [...loader, `scripts/${script}`, ...args], {
    cwd: root,
    encoding: "utf8",
    timeout: 60_000,
  });
}

const stripTypes = ["--experimental-strip-types"];

describe("every npm script refuses a flag it does not know, with exit code 2", () => {
  it.each([
    ["user-create.ts", ["--username", "alice", "--nickname", "al"], "Usage: npm run user:create"],
    ["simulate-crm.ts", ["--secret", "whsec_x", "--bogus", "1"], "Usage: npm run simulate:crm"],
    ["start.ts", ["--port", "1"], "Usage: npm start [-- --host H]"],
    ["bench.ts", ["suppression", "--runs", "1", "--bogus", "1"], "Flags: --runs, --routes"],
  ])(
    "%s %s",
    (script, args, usage) => {
      const result = run(script, args);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/Unknown option '--(nickname|bogus|port)'/);
      expect(result.stderr).toContain(usage);
    },
    60_000,
  );

  it("simulate:calls and serve.ts, which Node runs without tsx", () => {
    const calls = run("simulate-calls.ts", ["--partner", "k", "--bogus", "1"], stripTypes);
    expect(calls.status).toBe(2);
    expect(calls.stderr).toContain("Unknown option '--bogus'");
    expect(calls.stderr).toContain("Usage: npm run simulate:calls");
    expect(calls.stderr).toContain("[--no-callbacks]");
    // --no-callbacks is a known switch (the parser names the flag after it), and takes no value.
    const switchedOff = run("simulate-calls.ts", ["--partner", "k", "--no-callbacks", "--bogus", "1"], stripTypes);
    expect(switchedOff.status).toBe(2);
    expect(switchedOff.stderr).toContain("Unknown option '--bogus'");
    const valued = run("simulate-calls.ts", ["--partner", "k", "--no-callbacks=yes"], stripTypes);
    expect(valued.status).toBe(2);
    expect(valued.stderr).toContain("Option '--no-callbacks' does not take an argument");
    const serve = run("serve.ts", ["--port", "1", "--bogus", "1"], stripTypes);
    expect(serve.status).toBe(2);
    expect(serve.stderr).toContain("Unknown option '--bogus'");
    expect(serve.stdout).not.toContain("Ready on");
  }, 60_000);
});

describe("a value missing or given to a switch is refused, not taken as another flag", () => {
  it("a string flag needs its value; a boolean flag takes none", () => {
    const missing = run("simulate-crm.ts", ["--secret"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("Option '--secret <value>' argument missing");
    const swallowed = run("simulate-crm.ts", ["--port", "--secret", "whsec_x"]);
    expect(swallowed.status).toBe(2);
    expect(swallowed.stderr).toContain("Option '--port' argument is ambiguous");
    const valued = run("user-create.ts", ["--username", "alice", "--admin", "yes"]);
    expect(valued.status).toBe(2);
    expect(valued.stderr).toContain("Unexpected argument 'yes'");
    expect(valued.stdout).not.toContain("Created");
  }, 60_000);

  it("bench takes part names around its flags and still names an unknown part", () => {
    const result = run("bench.ts", ["--runs", "3", "nonsense"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Unknown bench part(s): nonsense. Parts: pages, import, leads");
    const noValue = run("bench.ts", ["suppression", "--runs"]);
    expect(noValue.status).toBe(2);
    expect(noValue.stderr).toContain("Option '--runs <value>' argument missing");
  }, 60_000);
});

describe("the scripts' own validation follows the parser", () => {
  it("user:create reports each flag the user rules refuse, before any database", () => {
    const result = run("user-create.ts", ["--username=ab", "--password", "x", "--email", "nope"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--username: Username must be at least 3 characters");
    expect(result.stderr).toContain("--password: Password must be at least 8 characters");
    expect(result.stderr).toContain("--email: Please enter a valid email address");
    expect(result.stdout).not.toContain("migrations");
  }, 60_000);

  it("simulate:calls without --partner prints its usage", () => {
    const result = run("simulate-calls.ts", [], stripTypes);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Usage: npm run simulate:calls -- --partner <API key>");
  }, 60_000);
});

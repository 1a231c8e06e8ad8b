/** What a script run by a unit test prints (stdout and stderr) until `until` matches or it exits; fails after 30 s. */
import type { ChildProcess } from "node:child_process";

export const scriptOutput = (child: ChildProcess, until: RegExp) =>
  new Promise<string>((done, fail) => {
    let text = "";
    const timer = setTimeout(() => fail(new Error(`no ${until} in: ${text}`)), 30_000);
    const take = (chunk: Buffer) => {
      text += chunk.toString();
      if (until.test(text)) {
        clearTimeout(timer);
        done(text);
      }
    };
    child.stdout?.on("data", take);
    child.stderr?.on("data", take);
    child.on("exit", () => {
      clearTimeout(timer);
      done(text);
    });
  });

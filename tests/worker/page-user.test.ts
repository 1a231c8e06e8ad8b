/**
 * Decision 0032: the pages Astro renders in the Worker read who is signed in from the session cookie
 * through the same session module as the API (worker/page-user.ts, used by src/middleware.ts). A session
 * the page guard already read for the request is not looked up again.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { pageUser, rememberSessionUser } from "../../worker/page-user";
import { SESSION_COOKIE } from "../../worker/services/sessions";
import { callApi, signedIn } from "./helpers";

const page = (cookie?: string) =>
  new Request("http://localhost/dashboard", { headers: cookie ? { Cookie: `theme=dark; ${cookie}` } : {} });

/** Counts the D1 statements `run` makes (raw SQL: the D1 usage itself is under test). */
async function statementsDuring(run: (db: D1Database) => Promise<unknown>): Promise<number> {
  let count = 0;
  const counting = new Proxy(env.DB, {
    get(target, key, receiver) {
      if (key === "prepare") {
        return (sql: string) => {
          count += 1;
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  await run(counting);
  return count;
}

describe("the signed-in user of a page", () => {
  it("is the session's user, as /api/me answers it", async () => {
    const { user, cookie } = await signedIn();
    const answer = await pageUser(page(cookie), env);
    expect(answer.user).toMatchObject({ id: user.id, username: user.username, isAdmin: false, accountType: "buyer" });
    const me = await (await callApi("/api/me", { cookie })).json();
    expect(answer.user).toEqual(me);
    expect(answer.cookie).toBeNull();
  });

  it("is nobody without a session cookie, and nothing is looked up", async () => {
    const statements = await statementsDuring((db) => pageUser(page(), { ...env, DB: db }));
    expect(statements).toBe(0);
    expect(await pageUser(page(), env)).toEqual({ user: null, cookie: null });
  });

  it("is nobody for an unknown or ended session, whose cookie is cleared", async () => {
    const unknown = await pageUser(page(`${SESSION_COOKIE}=not-a-session`), env);
    expect(unknown.user).toBeNull();
    expect(unknown.cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));

    const { cookie } = await signedIn();
    await callApi("/api/logout", { cookie, method: "POST", headers: { Origin: "http://localhost" } });
    expect((await pageUser(page(cookie), env)).user).toBeNull();
  });

  it("reuses what the page guard read for the same request instead of asking D1 again", async () => {
    const { user, cookie } = await signedIn();
    const request = page(cookie);
    const guardAnswer = await pageUser(request, env);
    rememberSessionUser(request, guardAnswer.user);
    let answer: Awaited<ReturnType<typeof pageUser>> | undefined;
    const statements = await statementsDuring(async (db) => {
      answer = await pageUser(request, { ...env, DB: db });
    });
    expect(statements).toBe(0);
    expect(answer?.user?.id).toBe(user.id);
    // Another request with the same cookie is looked up afresh.
    expect(await statementsDuring((db) => pageUser(page(cookie), { ...env, DB: db }))).toBeGreaterThan(0);
  });
});

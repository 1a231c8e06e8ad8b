/** `mount` (worker/mount.ts): a sub-app's `*` guard runs for its own routes only, URLs unchanged. */
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { ExtractSchema } from "hono/types";
import { describe, expect, it } from "vitest";
import { mount } from "../../worker/mount";

/** Refuses every request without `X-Key: <key>` with 401 and names who refused it. */
const guard = (key: string) =>
  createMiddleware(async (c, next) => {
    if (c.req.header("X-Key") !== key) return c.text(`${key} guard`, 401);
    return next();
  });

function build() {
  const open = new Hono().get("/health", (c) => c.text("open"));
  const buyer = new Hono()
    .use("*", guard("buyer"))
    .get("/orders", (c) => c.text("orders"))
    .post("/orders", (c) => c.text("ordered", 201))
    .get("/orders/:id", (c) => c.text(`order ${c.req.param("id")}`));
  const admin = new Hono().use("*", guard("admin")).get("/users", (c) => c.text("users"));
  const base = new Hono().basePath("/api");
  const app = mount(mount(mount(base, open), buyer), admin);
  app.all("*", (c) => c.text("not found", 404));
  return app;
}

const send = (app: ReturnType<typeof build>, path: string, init: RequestInit & { key?: string } = {}) =>
  app.request(path, { ...init, headers: init.key ? { "X-Key": init.key } : {} });

describe("mount", () => {
  it("keeps the URLs: no prefix for the sub-apps", async () => {
    const app = build();
    expect(await (await send(app, "/api/health")).text()).toBe("open");
    expect(await (await send(app, "/api/orders/7", { key: "buyer" })).text()).toBe("order 7");
    expect((await send(app, "/api/orders", { method: "POST", key: "buyer" })).status).toBe(201);
    expect(await (await send(app, "/api/users", { key: "admin" })).text()).toBe("users");
  });

  it("runs each sub-app's guard on its own routes, for every method it declares", async () => {
    const app = build();
    for (const [path, method, who] of [
      ["/api/orders", "GET", "buyer"],
      ["/api/orders", "POST", "buyer"],
      ["/api/orders/7", "GET", "buyer"],
      ["/api/users", "GET", "admin"],
    ] as const) {
      const response = await send(app, path, { method });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(await response.text()).toBe(`${who} guard`);
    }
    // The admin's key does not open the buyer's routes: the guards do not mix.
    expect((await send(app, "/api/orders", { key: "admin" })).status).toBe(401);
  });

  it("never runs a guard for another sub-app's routes or for unknown paths", async () => {
    const app = build();
    expect((await send(app, "/api/health")).status).toBe(200);
    expect((await send(app, "/api/users", { key: "admin" })).status).toBe(200);
    expect((await send(app, "/api/nowhere")).status).toBe(404);
    // A method the sub-app does not declare is not its route either.
    expect((await send(app, "/api/users", { method: "DELETE" })).status).toBe(404);
  });

  it("keeps Hono's types: the mounted app's schema lists every sub-app's routes", () => {
    const app = build();
    const paths: (keyof ExtractSchema<typeof app>)[] = ["/api/health", "/api/orders", "/api/orders/:id", "/api/users"];
    const registered = new Set(app.routes.map((route) => route.path));
    expect(paths.filter((path) => !registered.has(path))).toEqual([]);
  });
});

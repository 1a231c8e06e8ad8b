import { Hono } from "hono";
import type { AppBindings } from "../env";

/** Liveness plus a real D1 round trip: answers how many migrations the database has applied. */
export const health = new Hono<AppBindings>().get("/health", async (c) => {
  const row = await c.env.DB.prepare(
    "SELECT count(*) AS tables FROM sqlite_master WHERE type = 'table' AND name = 'users'",
  ).first<{ tables: number }>();
  return c.json({ ok: true, database: row?.tables === 1 ? "ready" : "missing-migrations" });
});

/**
 * The Hono app for everything under /api. Astro-free, so the Worker tests can run it on its own.
 */
import { Hono } from "hono";
import type { AppBindings } from "./env";
import { errorJson } from "./http";
import { health } from "./routes/health";

export const api = new Hono<AppBindings>().basePath("/api");

api.route("/", health);

api.all("*", (c) => errorJson(c, 404, "Not found"));

api.onError((error, c) => {
  console.error("Unhandled API error", error);
  return errorJson(c, 500, "Something went wrong. Please try again.");
});

// @ts-check

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import cloudflare from "@astrojs/cloudflare";
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";

/**
 * A feature's views' public face (src/features/<name>/views/index.ts, decision 0077) and the views it
 * re-exports, by path without extension: declared pure, so another feature's view that takes one part of the
 * face does not load the rest (the call-backs' tab takes aged leads' consent fields, not their CSV import).
 * A view re-exported there must do nothing at load beyond defining its exports.
 */
const viewFaces = new Set(
  readdirSync(fileURLToPath(new URL("src/features", import.meta.url))).flatMap((name) => {
    const index = fileURLToPath(new URL(`src/features/${name}/views/index.ts`, import.meta.url));
    if (!existsSync(index)) return [];
    const entries = [...readFileSync(index, "utf8").matchAll(/from "\.\/([^"]+)"/g)].map((m) => m[1]);
    return [`src/features/${name}/views/index`, ...entries.map((entry) => `src/features/${name}/views/${entry}`)];
  }),
);
/** @param {string} id */
const isViewFace = (id) =>
  viewFaces.has(
    id
      .replace(/\\/g, "/")
      .replace(/^.*?\/(src\/features\/)/, "$1")
      .replace(/\.tsx?$/, ""),
  );

export default defineConfig({
  site: "http://localhost:8787",
  // Pages render in the Worker unless they opt in with `export const prerender = true` (the marketing site does).
  output: "server",
  adapter: cloudflare({ prerenderEnvironment: "node", imageService: "passthrough" }),
  // Islands are React 19, rendered on the server and hydrated (decision 0032).
  integrations: [react()],
  build: { inlineStylesheets: "never" },
  server: { port: Number(process.env.PORT ?? 4321) },
  devToolbar: { enabled: false },
  vite: {
    build: {
      rolldownOptions: {
        treeshake: {
          // A feature's rules and index.ts are pure like src/domain; its schemas/ and views/ are not declared so,
          // but for its views' public face (above).
          moduleSideEffects: (id) =>
            !isViewFace(id) &&
            !/[\\/]src[\\/]((domain|ui|lib|config)[\\/](?!schemas[\\/])|features[\\/][\w-]+[\\/](?!schemas[\\/]|views[\\/]))/.test(
              id,
            ),
        },
      },
    },
    plugins: [tailwindcss()],
    environments: {
      client: {
        build: {
          rolldownOptions: {
            output: {
              codeSplitting: {
                groups: [
                  {
                    name: "react",
                    test: /node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react)[\\/]/,
                    priority: 2,
                  },
                  {
                    name: "query",
                    test: /node_modules[\\/]@tanstack[\\/]|[\\/]src[\\/](lib[\\/]query-client|islands[\\/]QueryProvider)\./,
                    priority: 1,
                  },
                ],
              },
            },
          },
        },
      },
    },
  },
});

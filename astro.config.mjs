// @ts-check
import cloudflare from "@astrojs/cloudflare";
import react from "@astrojs/react";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";

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
          // A feature's rules and index.ts are pure like src/domain; its schemas/ and views/ are not declared so.
          moduleSideEffects: (id) =>
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

// @ts-check
import cloudflare from "@astrojs/cloudflare";
import preact from "@astrojs/preact";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "astro/config";

export default defineConfig({
  site: "http://localhost:8787",
  // Pages render in the Worker unless they opt in with `export const prerender = true` (the marketing site does).
  output: "server",
  adapter: cloudflare({ prerenderEnvironment: "node", imageService: "passthrough" }),
  // Islands are written against React's API and run on Preact (`compat`: react and react-dom resolve to
  // preact/compat): ~4 KB gzip instead of react-dom's ~66 KB on every island page (decision 0024).
  integrations: [preact({ compat: true })],
  build: { inlineStylesheets: "never" },
  server: { port: Number(process.env.PORT ?? 4321) },
  devToolbar: { enabled: false },
  vite: { plugins: [tailwindcss()] },
});

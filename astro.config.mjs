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
  integrations: [react()],
  build: { inlineStylesheets: "never" },
  server: { port: Number(process.env.PORT ?? 4321) },
  devToolbar: { enabled: false },
  vite: { plugins: [tailwindcss()] },
});

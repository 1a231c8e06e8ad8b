/**
 * The partner API reference at /api/v1/docs (docs/decisions/0081): Scalar's API reference UI reading the
 * shop's OpenAPI document, its script served by the shop itself (no CDN; src/config/api-reference.ts).
 * The security headers' middleware stamps the response's CSP nonce onto its scripts, as on every page.
 */
import { Scalar } from "@scalar/hono-api-reference";
import type { Handler } from "hono";
import { API_REFERENCE_SCRIPT } from "../../../../src/config/api-reference";

export const OPENAPI_DOCUMENT_PATH = "/api/v1/openapi.json";

const TITLE = "Partner API reference";

/**
 * Scalar's default light theme draws its muted text, method badges and code numbers below WCAG AA
 * contrast (4.5:1) on its white and light grey backgrounds: these shades pass on both. Its own stylesheet
 * is injected after this one, hence `!important`.
 */
const CONTRAST_CSS = `.light-mode {
  --scalar-color-2: #5c5c5c !important;
  --scalar-color-3: #636363 !important;
  --scalar-color-accent: #0062ad !important;
  --scalar-color-green: #04744c !important;
  --scalar-color-red: #c00005 !important;
  --scalar-color-yellow: #7f6000 !important;
  --scalar-color-orange: #b03f00 !important;
}`;

const scalar = Scalar({
  url: OPENAPI_DOCUMENT_PATH,
  cdn: API_REFERENCE_SCRIPT,
  pageTitle: TITLE,
  // Light only, in the UI's own default theme; nothing sent to or fetched from Scalar's servers (fonts,
  // telemetry, MCP, the "Ask AI" agent).
  theme: "default",
  customCss: CONTRAST_CSS,
  forceDarkModeState: "light",
  hideDarkModeToggle: true,
  withDefaultFonts: false,
  telemetry: false,
  mcp: { disabled: true },
  agent: { disabled: true },
  // Its sidebar link opens Scalar's hosted client (client.scalar.com); each operation's own "Test Request"
  // opens the client inside the page.
  hideClientButton: true,
  showDeveloperTools: "never",
  documentDownloadType: "json",
});

const FAVICON = '<link rel="icon" type="image/svg+xml" href="/favicon.svg" />';

/** Without JavaScript the page still says where the document is. */
const NOSCRIPT = `<noscript><main><h1>${TITLE}</h1><p>This reference needs JavaScript. The OpenAPI 3.1 document it shows is at <a href="${OPENAPI_DOCUMENT_PATH}">${OPENAPI_DOCUMENT_PATH}</a>.</p></main></noscript>`;

export const partnerApiReference: Handler = async (c, next) => {
  const page = await scalar(c, next);
  // Scalar's handler always answers with its page; its middleware type also allows answering nothing.
  if (!page) throw new Error("the API reference rendered no page");
  return (
    new HTMLRewriter()
      .on("html", { element: (html) => void html.setAttribute("lang", "en") })
      // The site's icon, as on every page: without it the browser asks for /favicon.ico, which is a 404.
      .on("head", { element: (head) => void head.append(FAVICON, { html: true }) })
      .on("body", { element: (body) => void body.prepend(NOSCRIPT, { html: true }) })
      .transform(page)
  );
};

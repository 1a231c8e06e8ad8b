import type { MiddlewareHandler } from "hono";
import { NONCE, type SecureHeadersVariables, secureHeaders } from "hono/secure-headers";
import { bookingOrigin } from "../../src/config/site";

const stripeScript = "https://js.stripe.com";
const stripeFrames = ["https://js.stripe.com", "https://hooks.stripe.com"];

/**
 * D11: a CSP that allows only the site, Stripe and the booking host; no framing of the site.
 * Astro hydrates islands with small inline scripts, so every HTML response gets a fresh nonce,
 * stamped onto each of its <script> elements on the way out.
 */
export function securityHeaders(): MiddlewareHandler<{ Variables: SecureHeadersVariables }> {
  const applyHeaders = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", NONCE, stripeScript],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "https://*.stripe.com"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", "https://api.stripe.com"],
      // canvas-confetti draws in a worker it creates from a blob: URL; the CSV parser's worker is same-origin.
      workerSrc: ["'self'", "blob:"],
      frameSrc: [...stripeFrames, bookingOrigin],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      baseUri: ["'self'"],
      objectSrc: ["'none'"],
    },
    xFrameOptions: "DENY",
    referrerPolicy: "strict-origin-when-cross-origin",
    strictTransportSecurity: "max-age=31536000; includeSubDomains",
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: "same-origin",
  });
  return (c, next) =>
    applyHeaders(c, async () => {
      await next();
      const nonce = c.get("secureHeadersNonce");
      if (nonce && c.res.headers.get("Content-Type")?.startsWith("text/html")) {
        const stamped = new HTMLRewriter()
          .on("script", { element: (script) => void script.setAttribute("nonce", nonce) })
          .transform(c.res);
        c.res = new Response(stamped.body, stamped);
        // The page differs per response now: a cached copy would carry a stale nonce.
        c.res.headers.delete("ETag");
        if (!c.res.headers.get("Cache-Control")?.includes("no-store")) c.res.headers.set("Cache-Control", "no-cache");
      } else {
        // Responses from the ASSETS binding have immutable headers: copy before adding ours.
        c.res = new Response(c.res.body, c.res);
      }
    });
}

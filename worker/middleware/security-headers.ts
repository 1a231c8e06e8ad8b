import type { MiddlewareHandler } from "hono";
import { NONCE, type SecureHeadersVariables, secureHeaders } from "hono/secure-headers";
import { bookingOrigin } from "../../src/config/site";

/**
 * Exactly what Stripe's security guide lists for Stripe.js and the Payment Element (docs.stripe.com/security/guide,
 * "Content Security Policy"); its Google Maps entries serve the Address Element, which the shop does not use.
 */
const STRIPE_CSP = {
  scriptSrc: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frameSrc: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connectSrc: ["https://api.stripe.com"],
} as const;

/**
 * Product rule 43: a CSP that allows only the site, Stripe and the booking host; no framing of the site.
 * Astro hydrates islands with small inline scripts, so every HTML response gets a fresh nonce,
 * stamped onto each of its <script> elements on the way out.
 */
export function securityHeaders(): MiddlewareHandler<{ Variables: SecureHeadersVariables }> {
  const applyHeaders = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", NONCE, ...STRIPE_CSP.scriptSrc],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", ...STRIPE_CSP.connectSrc],
      // canvas-confetti draws in a worker it creates from a blob: URL; the CSV parser's worker is same-origin.
      workerSrc: ["'self'", "blob:"],
      frameSrc: bookingOrigin ? [...STRIPE_CSP.frameSrc, bookingOrigin] : [...STRIPE_CSP.frameSrc],
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
    // No page of the shop uses the camera, the microphone or the location: nothing embedded may either.
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
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

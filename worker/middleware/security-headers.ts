import type { MiddlewareHandler } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { bookingOrigin } from "../../src/config/site";

const stripeScript = "https://js.stripe.com";
const stripeFrames = ["https://js.stripe.com", "https://hooks.stripe.com"];

/** D11: a CSP that allows only the site, Stripe and the booking host; no framing of the site. */
export function securityHeaders(): MiddlewareHandler {
  const applyHeaders = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", stripeScript],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "https://*.stripe.com"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", "https://api.stripe.com"],
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
      // Responses from the ASSETS binding have immutable headers: copy before adding ours.
      c.res = new Response(c.res.body, c.res);
    });
}

import type { MiddlewareHandler } from "hono";

/**
 * Files under /vendor/ carry their version in their name (src/config/api-reference.ts), so a browser may
 * keep them for a year without asking again (docs/decisions/0081). Only a file that was found: a miss
 * (a version no longer shipped) answers the site's 404 page, which must not be kept.
 */
export const vendorAssets: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.status !== 200) return;
  // Responses from the ASSETS binding have immutable headers: copy before changing one.
  c.res = new Response(c.res.body, c.res);
  c.res.headers.set("Cache-Control", "public, max-age=31536000, immutable");
};

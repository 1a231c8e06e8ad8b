/**
 * The 403 page, fitted to who reads it (product rule 28): it says whom the page is for and links the
 * reader to their own home (a partner to /partner, a buyer to /dashboard, an admin to /admin), so nobody
 * is sent from one 403 page to another. The page itself is pre-rendered once (src/pages/403.astro); the
 * guard fills in its two marked places with Workers' HTMLRewriter.
 */
import { homePath, type PublicUser } from "../../src/domain/user";

import type { Audience as PageAudience } from "./policy";

/** Whom a guarded page is for, as the 403 page says it. */
const AUDIENCE_TEXT: Record<PageAudience, string> = {
  buyer: "buyers and administrators",
  admin: "administrators",
  partner: "partner call centers",
};

/** The way home for each kind of reader. */
const HOME_LINK_TEXT: Record<ReturnType<typeof homePath>, string> = {
  "/dashboard": "Go to your dashboard",
  "/partner": "Go to the partner portal",
  "/admin": "Go to the admin panel",
};

/** The pre-rendered 403 page (`page`) with its audience and home link set for `reader`; status 403. */
export function forbiddenPage(page: Response, audience: PageAudience, reader: PublicUser): Response {
  const home = homePath(reader);
  const fitted = new HTMLRewriter()
    .on("[data-403-audience]", {
      element: (element) => void element.setInnerContent(AUDIENCE_TEXT[audience]),
    })
    .on("a[data-403-home]", {
      element: (element) => void element.setAttribute("href", home).setInnerContent(HOME_LINK_TEXT[home]),
    })
    .transform(page);
  return new Response(fitted.body, { status: 403, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/**
 * A message for the next page: the login form redirects, and the page it lands on says
 * 'Login Successful' / 'Welcome back!' (spec). The login page sets a short-lived cookie naming the message;
 * the next page rendered in the Worker shows it once and removes the cookie (src/middleware.ts) and src/components/FlashNotice.astro. Server
 * side only: it works without JavaScript, as the login form does.
 */
export const FLASH_COOKIE = "flash";
/** Long enough for the redirect, short enough that a missed message does not show up much later. */
const FLASH_SECONDS = 60;

/** A good-news message, shown as a success toast would be. */
export interface Flash {
  title: string;
  description: string;
}

const FLASHES = {
  login: { title: "Login Successful", description: "Welcome back!" },
} as const satisfies Record<string, Flash>;

export type FlashKind = keyof typeof FLASHES;

const attributes = (url: URL) => `Path=/; HttpOnly; SameSite=Lax${url.protocol === "https:" ? "; Secure" : ""}`;

/** The Set-Cookie value that carries `kind` to the next page. */
export const flashCookie = (kind: FlashKind, url: URL) =>
  `${FLASH_COOKIE}=${kind}; Max-Age=${FLASH_SECONDS}; ${attributes(url)}`;

/** The Set-Cookie value that removes it once shown. */
export const clearFlashCookie = (url: URL) => `${FLASH_COOKIE}=; Max-Age=0; ${attributes(url)}`;

/** The message a cookie value names, if it is one. */
export function flashNamed(value: string | undefined): Flash | null {
  return value !== undefined && Object.hasOwn(FLASHES, value) ? FLASHES[value as FlashKind] : null;
}

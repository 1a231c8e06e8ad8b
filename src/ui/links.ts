/**
 * Addresses of the signed-in screens, for the pages that render them on the server (decision 0074).
 */

/** The login page that brings the visitor back to `url` afterwards. */
export const signInPath = (url: URL): string => `/login?next=${encodeURIComponent(url.pathname + url.search)}`;

/**
 * Where an address of the old one-island screens (/dashboard?view=…, /admin?tab=…) lives now: the page of the
 * view `param` names, every other query parameter kept; an id that names no view goes to `landing`'s page.
 * Undefined when the URL has no `param`.
 */
export function movedViewPath<Id extends string>(
  url: URL,
  param: string,
  ids: readonly Id[],
  landing: Id,
  pathOf: (id: Id) => string,
): string | undefined {
  const id = url.searchParams.get(param);
  if (id === null) return undefined;
  const rest = new URLSearchParams(url.searchParams);
  rest.delete(param);
  const known = ids.find((candidate) => candidate === id);
  const query = rest.toString();
  return `${pathOf(known ?? landing)}${query ? `?${query}` : ""}`;
}

/**
 * Where to go after login (product rule 44): `next` is followed only when it resolves, the way the
 * browser will resolve it, to a path on this same origin. Everything else (other hosts, scheme-relative
 * `//host`, `/\host`, control characters that browsers strip, `javascript:`) gives null.
 */
export function safeNextPath(next: string | null | undefined, origin: string): string | null {
  if (!next) return null;
  let target: URL;
  try {
    target = new URL(next, origin);
  } catch {
    return null;
  }
  if (target.origin !== new URL(origin).origin) return null;
  const path = `${target.pathname}${target.search}${target.hash}`;
  // A path that itself starts with two slashes would be read as another host when followed.
  return path.startsWith("//") || path.startsWith("/\\") ? null : path;
}

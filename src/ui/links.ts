import { type MouseEvent, useEffect, useState } from "react";

/**
 * A click on a link that the browser should handle itself (a new tab or window, a download) rather than
 * the island's own navigation.
 */
const opensElsewhere = (event: MouseEvent) =>
  event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;

/**
 * Views with their own URLs inside one island (the dashboard's views, the admin's tabs; decision 0032): the
 * page's query string as state, from the server's `initial` on, following Back and Forward. `follow(event)`
 * is a link's click handler: the island shows the link's view and pushes its URL, without a reload; a click
 * for a new tab or window is left to the browser.
 */
export function useViewUrl(initial: string) {
  const [search, setSearch] = useState(initial);
  useEffect(() => {
    const followHistory = () => setSearch(window.location.search);
    window.addEventListener("popstate", followHistory);
    return () => window.removeEventListener("popstate", followHistory);
  }, []);
  function follow(event: MouseEvent<HTMLAnchorElement>) {
    if (opensElsewhere(event)) return;
    event.preventDefault();
    const url = new URL(event.currentTarget.href);
    if (url.search === window.location.search && url.pathname === window.location.pathname) return;
    window.history.pushState(null, "", url);
    setSearch(url.search);
  }
  return { search, follow };
}

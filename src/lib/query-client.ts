/**
 * The islands' server state goes through TanStack Query (decision 0074), with the spec's rules as its
 * defaults: a GET is fetched once per key and kept for the page's life (never stale, never collected),
 * never retried and never refetched on focus or reconnect; `invalidateQueries` and `refetch` ask again.
 * A mutation invalidates the queries it changes.
 */
import { QueryClient } from "@tanstack/react-query";

const rules = {
  queries: {
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  },
  mutations: { retry: false },
} as const;

/** One client per page in the browser, shared by every island on it; a fresh one per render on the server. */
let browserClient: QueryClient | undefined;

export function pageQueryClient(): QueryClient {
  // While the Worker renders a page nothing is fetched (effects do not run) and nothing is kept between requests.
  if (typeof window === "undefined") return new QueryClient({ defaultOptions: rules });
  browserClient ??= new QueryClient({ defaultOptions: rules });
  return browserClient;
}

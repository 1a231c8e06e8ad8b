/** TanStack Query with the spec's defaults (§7): no retries, no refetching, data never stale. */
import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { apiRequest } from "./api";

/** GET the first element of the query key, with credentials; a 401 throws like any error. */
const getQueryKeyUrl: QueryFunction = ({ queryKey }) => apiRequest("GET", String(queryKey[0]));

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryKeyUrl,
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        staleTime: Number.POSITIVE_INFINITY,
      },
      mutations: { retry: false },
    },
  });
}

/** Who is signed in, as the server says (GET /api/me): one cached query shared by every island of a page. */
import { ApiError, api, call } from "./api";
import { useQuery } from "./query";

export const ME_QUERY_KEY = ["/api/me"] as const;

async function fetchMe() {
  const user = await call(api.me.$get());
  if (!user) throw new ApiError(401, "Please log in.");
  return user;
}

export function useMe({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: ME_QUERY_KEY, queryFn: fetchMe, enabled });
}

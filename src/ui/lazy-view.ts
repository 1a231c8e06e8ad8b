import { type ComponentType, createElement, lazy, memo, Suspense, use, useId } from "react";

const onServer = typeof window === "undefined";

export interface LazyViewOptions {
  /**
   * "visible": in the browser the view's code loads, and the server's HTML is hydrated, only once the view
   * nears the screen (like Astro's `client:visible`). For heavy parts below the fold.
   */
  hydrate?: "visible";
}

/** Resolves when the element with `id` is within 200 px of the screen (at once without the element or the API). */
function nearScreen(id: string): Promise<void> {
  return new Promise((resolve) => {
    const element = document.getElementById(id);
    if (!element || typeof IntersectionObserver === "undefined") return resolve();
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        resolve();
      },
      { rootMargin: "200px" },
    );
    observer.observe(element);
  });
}

/**
 * A part of a page whose code is its own chunk, loaded when first shown (decisions 0016, 0032), yet rendered
 * into the server's HTML. In the browser it is `React.lazy`: the server's HTML stays on screen until the
 * chunk has arrived and hydrated. On the server its code starts loading at definition, so once loaded the
 * part renders at once; before that, React's streaming renderer waits for it and writes it in place.
 * Render it inside `<Suspense>` (a "visible" part brings its own). Pages are never lazy: each view has its
 * own page and island (decision 0074).
 */
export function lazyView<P extends object>(
  load: () => Promise<ComponentType<P>>,
  options: LazyViewOptions = {},
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then((component) => {
      loaded = component;
      return component;
    });
    return loading;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  if (onServer) void preload();
  // The same tree on both sides (the server's HTML must match what hydrates): on the server the view
  // itself, since its code is loaded; in the browser always the one `lazy`, so a view keeps its state.
  const current = () => (onServer && loaded) || Lazy;

  if (options.hydrate !== "visible") return (props: P) => createElement(current(), props);

  const ready = new Map<string, Promise<unknown>>();
  // biome-ignore lint/correctness/noComponentHookFactories: made once per view, at module level, like React.lazy
  function Gate({ id, props }: { id: string; props: P }) {
    if (!onServer) {
      let promise = ready.get(id);
      if (!promise) {
        promise = nearScreen(id).then(preload);
        ready.set(id, promise);
      }
      use(promise);
      return createElement(loaded as ComponentType<P>, props);
    }
    return createElement(current(), props);
  }
  // memo: a re-render of the parent with equal props must not disturb a part still waiting to hydrate.
  // biome-ignore lint/correctness/noComponentHookFactories: made once per view, at module level, like React.lazy
  return memo(function WhenVisible(props: P) {
    const id = useId();
    return createElement("div", { id }, createElement(Suspense, null, createElement(Gate, { id, props })));
  }) as unknown as ComponentType<P>;
}

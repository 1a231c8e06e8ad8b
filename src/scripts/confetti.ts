import confetti from "canvas-confetti";

/** One burst per delay (ms after the call); nothing for visitors who prefer reduced motion. */
export function celebrate(delays: readonly number[]): void {
  for (const delay of delays) {
    setTimeout(() => {
      void confetti({ particleCount: 90, spread: 75, origin: { y: 0.6 }, disableForReducedMotion: true });
    }, delay);
  }
}

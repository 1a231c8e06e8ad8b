import confetti from "canvas-confetti";

const burst = () => void confetti({ particleCount: 90, spread: 75, origin: { y: 0.6 }, disableForReducedMotion: true });

/** One burst per delay (ms after the call); nothing for visitors who prefer reduced motion. */
export function celebrate(delays: readonly number[]): void {
  for (const delay of delays) setTimeout(burst, delay);
}

/** A steady fall of confetti from both sides for `durationMs` (success screens: 3 seconds). */
export function celebrateFor(durationMs: number): void {
  const end = Date.now() + durationMs;
  const frame = () => {
    for (const x of [0, 1]) {
      void confetti({
        particleCount: 3,
        angle: x === 0 ? 60 : 120,
        spread: 55,
        origin: { x, y: 0.7 },
        disableForReducedMotion: true,
      });
    }
    if (Date.now() < end) requestAnimationFrame(frame);
  };
  frame();
}

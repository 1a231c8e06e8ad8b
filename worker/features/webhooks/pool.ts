/**
 * Sends a consumer batch's deliveries, fair between endpoints (docs/decisions/0052): at most
 * WEBHOOK_BATCH_CONCURRENCY requests at once, at most WEBHOOK_ENDPOINT_IN_FLIGHT of them to one endpoint,
 * endpoints taken in turn. An endpoint stops getting requests in this batch once one went unanswered (a
 * timeout, no connection: the rest of its deliveries wait for its back-off), and no request starts once
 * the send window has passed.
 */
import { WEBHOOK_BATCH_CONCURRENCY, WEBHOOK_ENDPOINT_IN_FLIGHT } from "../../../src/features/webhooks/schedule";

export interface Lane<T> {
  key: string;
  /** Not yet started, in the order they go. */
  waiting: T[];
  inFlight: number;
  /** Started so far. */
  attempted: number;
  /** One of its requests went unanswered: start no more. */
  stopped: boolean;
}

/**
 * Runs `send` over every lane's items as described above; answers when nothing is in flight. Items a
 * lane did not start stay in its `waiting` list for the caller to put off. `send` answers whether the
 * lane may go on (false: stop it); a throw stops it too.
 */
export async function sendFairly<T>(
  lanes: readonly Lane<T>[],
  send: (item: T, lane: Lane<T>) => Promise<boolean>,
  windowOpen: () => boolean,
): Promise<void> {
  let running = 0;
  let turn = 0;
  const nextLane = (): Lane<T> | null => {
    for (let i = 0; i < lanes.length; i++) {
      const lane = lanes[(turn + i) % lanes.length] as Lane<T>;
      if (!lane.stopped && lane.waiting.length > 0 && lane.inFlight < WEBHOOK_ENDPOINT_IN_FLIGHT) {
        turn = (turn + i + 1) % lanes.length;
        return lane;
      }
    }
    return null;
  };
  await new Promise<void>((done) => {
    const pump = () => {
      while (running < WEBHOOK_BATCH_CONCURRENCY && windowOpen()) {
        const lane = nextLane();
        if (!lane) break;
        const item = lane.waiting.shift() as T;
        lane.inFlight++;
        lane.attempted++;
        running++;
        void send(item, lane)
          .catch(() => false)
          .then((ok) => {
            if (!ok) lane.stopped = true;
            lane.inFlight--;
            running--;
            pump();
          });
      }
      if (running === 0) done();
    };
    pump();
  });
}

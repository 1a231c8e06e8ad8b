/** The CSV parsing worker of one file (csv-parse.worker.ts), with request/answer helpers. */
import type { FromWorker, ToWorker } from "./csv-protocol";

export type WorkerAnswer<T extends FromWorker["type"]> = Extract<FromWorker, { type: T }>;

/** The parse worker for one file, with request/answer helpers. */
export class CsvWorker {
  private readonly worker = new Worker(new URL("./csv-parse.worker.ts", import.meta.url), { type: "module" });
  private readonly listeners = new Set<(message: FromWorker) => void>();

  constructor() {
    this.worker.onmessage = (event: MessageEvent<FromWorker>) => {
      for (const listener of this.listeners) listener(event.data);
    };
    this.worker.onerror = () => {
      for (const listener of this.listeners) listener({ type: "error", message: "File Processing Error" });
    };
  }

  send(message: ToWorker) {
    this.worker.postMessage(message);
  }

  listen(listener: (message: FromWorker) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends `message` and resolves with the worker's first answer of type `type`. */
  ask<T extends FromWorker["type"]>(message: ToWorker, type: T, accept?: (answer: WorkerAnswer<T>) => boolean) {
    return new Promise<WorkerAnswer<T>>((resolve, reject) => {
      const stop = this.listen((answer) => {
        if (answer.type === "error") {
          stop();
          reject(new Error(answer.message));
        } else if (answer.type === type && (!accept || accept(answer as WorkerAnswer<T>))) {
          stop();
          resolve(answer as WorkerAnswer<T>);
        }
      });
      this.send(message);
    });
  }

  terminate() {
    this.listeners.clear();
    this.worker.terminate();
  }
}

/**
 * Reads a suppression list file off the main thread, in 1 MB slices through the pure
 * parser (src/features/do-not-call/suppression-file.ts), so a file of millions of numbers never sits in memory.
 * `check` reads the whole file once: a file refused whole (empty, binary, a ZIP, a lead file, no numbers)
 * is refused before anything is sent, and the report counts every line. `stream` reads it again and hands
 * the numbers over in batches, at most a few ahead of the uploads ("next" acknowledges one).
 */
import {
  createSuppressionFileParser,
  type SuppressionBatch,
  SuppressionFileError,
  type SuppressionFileKind,
} from "../suppression-file";
import { type FromWorker, PARSE_AHEAD_BATCHES, SLICE_BYTES, type ToWorker } from "./protocol";

const post = (message: FromWorker) => self.postMessage(message);

let checked: { file: File; kind: SuppressionFileKind } | null = null;
let unacknowledged = 0;
let wake: (() => void) | null = null;

/** The file's text, slice by slice (UTF-8 decoded across slice boundaries), with the bytes read so far. */
async function* slices(file: File): AsyncGenerator<[text: string, bytes: number]> {
  const decoder = new TextDecoder("utf-8");
  for (let offset = 0; offset < file.size; offset += SLICE_BYTES) {
    const end = Math.min(file.size, offset + SLICE_BYTES);
    const buffer = await file.slice(offset, end).arrayBuffer();
    yield [decoder.decode(buffer, { stream: end < file.size }), end];
  }
}

async function check(file: File, kind: SuppressionFileKind) {
  checked = null;
  const parser = createSuppressionFileParser(kind);
  try {
    for await (const [text, bytes] of slices(file)) {
      parser.push(text);
      post({ type: "progress", bytes });
    }
    const { report } = parser.end();
    checked = { file, kind };
    post({ type: "checked", report: { ...report, rejections: [...report.rejections] } });
  } catch (error) {
    if (!(error instanceof SuppressionFileError)) throw error;
    post({ type: "refused", message: error.message, report: error.report });
  }
}

async function stream(batchSize: number) {
  if (!checked) throw new Error("No file has been checked yet");
  const parser = createSuppressionFileParser(checked.kind);
  let add: number[] = [];
  let remove: number[] = [];
  let batchNumber = 0;
  let bytesRead = 0;
  const handOver = async (all: boolean) => {
    while (add.length + remove.length >= batchSize || (all && add.length + remove.length > 0)) {
      while (unacknowledged >= PARSE_AHEAD_BATCHES) await new Promise<void>((resolve) => (wake = resolve));
      const fromAdd = Math.min(add.length, batchSize);
      const batch = { add: add.slice(0, fromAdd), remove: remove.slice(0, batchSize - fromAdd) };
      add = add.slice(fromAdd);
      remove = remove.slice(batch.remove.length);
      batchNumber += 1;
      unacknowledged += 1;
      post({ type: "batch", batchNumber, ...batch, bytes: bytesRead });
    }
  };
  const take = (batch: SuppressionBatch) => {
    for (const number of batch.add) add.push(number);
    for (const number of batch.remove) remove.push(number);
  };
  for await (const [text, bytes] of slices(checked.file)) {
    bytesRead = bytes;
    take(parser.push(text));
    await handOver(false);
  }
  take(parser.end().batch);
  await handOver(true);
  post({ type: "done", batches: batchNumber });
}

async function handle(message: ToWorker) {
  if (message.type === "check") await check(message.file, message.kind);
  else if (message.type === "stream") await stream(message.batchSize);
  else {
    unacknowledged = Math.max(0, unacknowledged - 1);
    const resume = wake;
    wake = null;
    resume?.();
  }
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  handle(event.data).catch((error: unknown) =>
    post({ type: "error", message: error instanceof Error ? error.message : String(error) }),
  );
};

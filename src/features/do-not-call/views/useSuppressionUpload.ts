/**
 * A suppression list upload's state and work, shared by the admin area and My Account:
 * the file is read once in a Web Worker (a file refused whole stops here, nothing sent); a file with some
 * rejected lines waits for the uploader to load the rest; then its numbers go to the server in batches of
 * 10,000 (two in flight), and the upload is followed until the Queue has applied every batch. A buyer's
 * file of more numbers than a private list holds is refused before anything is sent.
 */
import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../../lib/api";
import { PRIVATE_LIST_LIMITS, SUPPRESSION_UPLOAD_REFUSALS } from "../private-lists";
import type { SuppressionUploadView } from "../schemas/suppression";
import { SUPPRESSION_BATCH_NUMBERS } from "../suppression";
import type { SuppressionFileKind, SuppressionFileReport } from "../suppression-file";
import type { FromWorker } from "./protocol";
import { POLL_MS, type UploadTarget, uploadApi } from "./upload-api";

/** Batches uploaded at once. */
const CONCURRENT_UPLOADS = 2;

export interface UploadChoice {
  target: UploadTarget;
  contents: SuppressionFileKind;
  refreshedOn: string;
}

export type UploadStage =
  | { name: "idle" }
  | { name: "checking"; fileName: string; bytes: number; size: number }
  | { name: "refused"; fileName: string; message: string; report: SuppressionFileReport }
  | { name: "review"; fileName: string; report: SuppressionFileReport }
  | {
      name: "sending";
      fileName: string;
      bytes: number;
      size: number;
      sent: number;
      total: number;
      upload: SuppressionUploadView | null;
    }
  | { name: "applying"; fileName: string; upload: SuppressionUploadView }
  | { name: "done"; upload: SuppressionUploadView }
  | { name: "failed"; fileName: string; message: string };

class ParseWorker {
  private readonly worker = new Worker(new URL("./suppression-parse.worker.ts", import.meta.url), { type: "module" });
  listener: (message: FromWorker) => void = () => undefined;
  constructor() {
    this.worker.onmessage = (event: MessageEvent<FromWorker>) => this.listener(event.data);
    this.worker.onerror = () => this.listener({ type: "error", message: "The file could not be read." });
  }
  send(message: Parameters<Worker["postMessage"]>[0]) {
    this.worker.postMessage(message);
  }
  terminate() {
    this.worker.terminate();
  }
}

export function useSuppressionUpload(scope: "admin" | "buyer", onDone?: (upload: SuppressionUploadView) => void) {
  const [stage, setStage] = useState<UploadStage>({ name: "idle" });
  const current = useRef<{ worker: ParseWorker; file: File; choice: UploadChoice } | null>(null);
  const server = uploadApi(scope);

  function release() {
    current.current?.worker.terminate();
    current.current = null;
  }
  // The worker goes with the component (the ref, not `release`, which each render makes anew).
  useEffect(() => () => current.current?.worker.terminate(), []);

  /** Reads the whole file; a clean file goes straight on to the upload, one with rejected lines waits for a yes. */
  function begin(file: File, choice: UploadChoice) {
    release();
    const worker = new ParseWorker();
    current.current = { worker, file, choice };
    setStage({ name: "checking", fileName: file.name, bytes: 0, size: file.size });
    worker.listener = (message) => {
      if (message.type === "progress") setStage((s) => (s.name === "checking" ? { ...s, bytes: message.bytes } : s));
      else if (message.type === "refused") {
        release();
        setStage({ name: "refused", fileName: file.name, message: message.message, report: message.report });
      } else if (message.type === "checked") {
        if (scope === "buyer" && message.report.added > PRIVATE_LIST_LIMITS.numbers) {
          // Nothing is sent: the server would refuse the file at its start (docs/decisions/0051).
          release();
          const refusal = SUPPRESSION_UPLOAD_REFUSALS.privateListFull;
          setStage({ name: "refused", fileName: file.name, message: refusal, report: message.report });
        } else if (message.report.rejected > 0)
          setStage({ name: "review", fileName: file.name, report: message.report });
        else void send(message.report);
      } else if (message.type === "error") fail(file.name, message.message);
    };
    worker.send({ type: "check", file, kind: choice.contents });
  }

  function fail(fileName: string, message: string) {
    release();
    setStage({ name: "failed", fileName, message });
  }

  /** "Load the valid numbers" after the review, or straight after a clean check. */
  async function send(report: SuppressionFileReport) {
    const job = current.current;
    if (!job) return;
    const { worker, file, choice } = job;
    setStage({
      name: "sending",
      fileName: file.name,
      bytes: 0,
      size: file.size,
      sent: 0,
      total: report.accepted,
      upload: null,
    });
    try {
      const { uploadId } = await server.start({
        target: choice.target,
        contents: choice.contents,
        refreshedOn: choice.refreshedOn,
        fileName: file.name,
        report: { ...report, rejections: report.rejections.slice(0, 100) },
      });
      let sending = true;
      void (async () => {
        while (sending) {
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          if (!sending) return;
          const upload = await server.status(uploadId).catch(() => null);
          if (upload) setStage((s) => (s.name === "sending" ? { ...s, upload } : s));
        }
      })();
      const batches = await new Promise<number>((resolve, reject) => {
        const waiting: Extract<FromWorker, { type: "batch" }>[] = [];
        let inFlight = 0;
        let total: number | null = null;
        let sent = 0;
        let failed = false;
        const pump = () => {
          if (failed) return;
          while (inFlight < CONCURRENT_UPLOADS && waiting.length > 0) {
            const batch = waiting.shift();
            if (!batch) break;
            inFlight += 1;
            server
              .batch(uploadId, { batchNumber: batch.batchNumber, add: batch.add, remove: batch.remove })
              .then(() => {
                inFlight -= 1;
                sent += batch.add.length + batch.remove.length;
                setStage((s) => (s.name === "sending" ? { ...s, sent, bytes: batch.bytes } : s));
                worker.send({ type: "next" });
                pump();
              })
              .catch((error: unknown) => {
                failed = true;
                reject(error);
              });
          }
          if (total !== null && inFlight === 0 && waiting.length === 0) resolve(total);
        };
        worker.listener = (message) => {
          if (message.type === "batch") waiting.push(message);
          else if (message.type === "done") total = message.batches;
          else if (message.type === "error") {
            failed = true;
            reject(new Error(message.message));
          }
          pump();
        };
        worker.send({ type: "stream", batchSize: SUPPRESSION_BATCH_NUMBERS });
      }).finally(() => {
        sending = false;
      });
      release();
      let upload = await server.finish(uploadId, batches);
      while (upload.status === "applying" || upload.status === "receiving") {
        setStage({ name: "applying", fileName: file.name, upload });
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        upload = await server.status(uploadId);
      }
      if (upload.status === "failed") throw new Error(upload.error ?? "The upload failed.");
      setStage({ name: "done", upload });
      onDone?.(upload);
    } catch (error) {
      fail(file.name, errorMessage(error, error instanceof Error ? error.message : "The upload failed."));
    }
  }

  function loadReviewed() {
    if (stage.name === "review") void send(stage.report);
  }

  function reset() {
    release();
    setStage({ name: "idle" });
  }

  return { stage, begin, loadReviewed, reset };
}

/**
 * The bulk CSV import's state and work (spec §5; PRODUCT.md D8), apart from its views: the file is read
 * in a Web Worker, auto-mapped or reviewed page by page, checked for a valid row anywhere in the file,
 * then streamed to the server in batches (a few in flight), and the import is followed to its report.
 * The main thread holds one review page and the batches in flight, never the file's rows.
 */

import { useEffect, useRef, useState } from "react";
import {
  AUTO_MAP_REQUIRED,
  autoMapColumns,
  BULK_BATCH_SIZE,
  FIELD_LABELS,
  type FieldMapping,
  type LeadField,
  MANUAL_MAP_REQUIRED,
  missingFields,
} from "../../../domain/csv-mapping";
import { type Answer, ApiError, api, call, errorMessage } from "../../../lib/api";
import { useQueryClient } from "../../../lib/query";
import { toast } from "../../../ui/toast";
import type { FromWorker, ReviewRow, ToWorker } from "./csv-protocol";

const SUCCESS_BANNER_MS = 3000;
const POLL_MS = 1000;
/** Batches uploaded at once once the import exists (the first batch creates it alone). */
const CONCURRENT_UPLOADS = 2;
/** A batch that fails for a reason other than its content is sent again (the server ignores repeats). */
const UPLOAD_ATTEMPTS = 3;

/** GET /api/imports/:id: an import's counts and, once done, its report. */
export type ImportStatus = Answer<(typeof api.imports)[":id"]["$get"]>;
type BatchBody = Parameters<(typeof api)["bulk-upload-aged-leads"]["$post"]>[0]["json"];

const importStatus = (importId: string) =>
  call(api.imports[":id"].$get({ param: { id: encodeURIComponent(importId) } }));

export type Stage =
  | { name: "idle" }
  | { name: "reading" }
  | { name: "uploading"; fileName: string; totalRows: number; sentRows: number; status: ImportStatus | null }
  | { name: "success"; status: ImportStatus };

/** The review dialog's state: the file's header and size, the mapping chosen so far, and one page of rows. */
export interface Review {
  fileName: string;
  headers: string[];
  totalRows: number;
  mapping: FieldMapping;
  page: number;
  rows: ReviewRow[];
  loadingPage: boolean;
}

type WorkerAnswer<T extends FromWorker["type"]> = Extract<FromWorker, { type: T }>;

/** The parse worker for one file, with request/answer helpers. */
class CsvWorker {
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

const fileError = () =>
  toast({ title: "File Processing Error", description: "Error processing the uploaded file", variant: "destructive" });
const noValidData = () =>
  toast({ title: "No Valid Data", description: "No row has a name, phone and state.", variant: "destructive" });
const fieldList = (fields: readonly LeadField[]) => fields.map((f) => FIELD_LABELS[f]).join(", ");

async function uploadBatch(body: BatchBody) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(api["bulk-upload-aged-leads"].$post({ json: body }));
    } catch (error) {
      const refused = error instanceof ApiError && error.status < 500;
      if (refused || attempt >= UPLOAD_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

async function waitForImport(importId: string, onProgress: (status: ImportStatus) => void): Promise<ImportStatus> {
  for (;;) {
    const status = await importStatus(importId);
    onProgress(status);
    if (status.done) return status;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export function isCsvFile(file: File): boolean {
  return /\.csv$/i.test(file.name) || file.type === "text/csv";
}

export function useCsvImport() {
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ name: "idle" });
  const [review, setReview] = useState<Review | null>(null);
  const [report, setReport] = useState<ImportStatus | null>(null);
  const current = useRef<{ worker: CsvWorker; file: File } | null>(null);

  useEffect(() => {
    if (stage.name !== "success") return;
    const timer = setTimeout(() => setStage({ name: "idle" }), SUCCESS_BANNER_MS);
    return () => clearTimeout(timer);
  }, [stage.name]);

  useEffect(() => () => current.current?.worker.terminate(), []);

  function release() {
    current.current?.worker.terminate();
    current.current = null;
  }

  /** Drops the file and says why. */
  function giveUp(say: () => void) {
    release();
    setStage({ name: "idle" });
    say();
  }

  /** Whether some row of the whole file has a name, phone and state under `mapping` (the worker looks). */
  async function hasValidRow(worker: CsvWorker, mapping: FieldMapping): Promise<boolean> {
    const answer = await worker.ask({ type: "check", mapping }, "checked");
    return answer.firstValidRow !== null;
  }

  async function inspect(file: File) {
    if (!isCsvFile(file)) {
      toast({ title: "Invalid File", description: "Please choose a CSV file.", variant: "destructive" });
      return;
    }
    release();
    const worker = new CsvWorker();
    current.current = { worker, file };
    setStage({ name: "reading" });
    setReport(null);
    setReview(null);
    let inspected: WorkerAnswer<"inspected">;
    try {
      inspected = await worker.ask({ type: "inspect", file }, "inspected");
    } catch {
      giveUp(fileError);
      return;
    }
    if (inspected.headers.length === 0 || inspected.totalRows === 0) {
      giveUp(() =>
        toast({
          title: "Invalid File",
          description: "File must contain at least a header row and one data row",
          variant: "destructive",
        }),
      );
      return;
    }
    const openReview = (mapping: FieldMapping) => {
      setStage({ name: "idle" });
      setReview({
        fileName: file.name,
        headers: inspected.headers,
        totalRows: inspected.totalRows,
        mapping,
        page: 0,
        rows: inspected.firstPage,
        loadingPage: false,
      });
    };
    let mapping: FieldMapping;
    try {
      mapping = autoMapColumns(inspected.headers);
    } catch {
      toast({
        title: "Auto-Mapping Error",
        description: "Error automatically processing your file. Please try manual mapping.",
        variant: "destructive",
      });
      openReview({});
      return;
    }
    const missing = missingFields(mapping, AUTO_MAP_REQUIRED);
    if (missing.length > 0) {
      toast({
        title: "Auto-Mapping Failed",
        description: `Could not find columns for ${fieldList(missing)}. Please map them.`,
        variant: "destructive",
      });
      openReview(mapping);
      return;
    }
    try {
      if (!(await hasValidRow(worker, mapping))) {
        giveUp(noValidData);
        return;
      }
    } catch {
      giveUp(fileError);
      return;
    }
    await upload(worker, file.name, inspected.totalRows, mapping);
  }

  async function showPage(page: number) {
    const worker = current.current?.worker;
    if (!worker || !review) return;
    setReview((r) => r && { ...r, page, loadingPage: true });
    try {
      const answer = await worker.ask({ type: "page", page }, "page", (a) => a.page === page);
      setReview((r) => (r && r.page === page ? { ...r, rows: answer.rows, loadingPage: false } : r));
    } catch {
      setReview((r) => r && { ...r, loadingPage: false });
      fileError();
    }
  }

  function closeReview() {
    setReview(null);
    release();
  }

  async function confirmMapping(mapping: FieldMapping) {
    const worker = current.current?.worker;
    if (!review || !worker) return;
    const missing = missingFields(mapping, MANUAL_MAP_REQUIRED);
    if (missing.length > 0) {
      toast({
        title: "Missing Field Mappings",
        description: `Please map: ${fieldList(missing)}`,
        variant: "destructive",
      });
      return;
    }
    try {
      if (!(await hasValidRow(worker, mapping))) {
        noValidData();
        return;
      }
    } catch {
      toast({ title: "Mapping Error", description: "Error applying field mapping to data", variant: "destructive" });
      return;
    }
    setReview(null);
    await upload(worker, review.fileName, review.totalRows, mapping);
  }

  /** Streams the file's batches to the server (the first alone: it creates the import), then follows it. */
  async function upload(worker: CsvWorker, fileName: string, totalRows: number, mapping: FieldMapping) {
    setStage({ name: "uploading", fileName, totalRows, sentRows: 0, status: null });
    let importId: string | undefined;
    let sentRows = 0;
    let sending = true;
    const showProgress = (progress: ImportStatus) =>
      setStage((s) => (s.name === "uploading" ? { ...s, status: progress } : s));
    /** While batches are still being sent, the server's counts show how far the Queue has got. */
    const followWhileSending = async (id: string) => {
      while (sending) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        if (!sending) return;
        try {
          showProgress(await importStatus(id));
        } catch {
          // A missed reading is fine: the next one, or the final wait, reports.
        }
      }
    };
    try {
      await new Promise<void>((resolve, reject) => {
        const waiting: WorkerAnswer<"batch">[] = [];
        let inFlight = 0;
        let finished = false;
        let failed = false;
        const send = async (batch: WorkerAnswer<"batch">) => {
          inFlight += 1;
          try {
            const answer = await uploadBatch({
              ...(importId ? { importId } : { fileName }),
              batchNumber: batch.batchNumber,
              leads: batch.leads,
              fieldMapping: mapping,
            });
            const created = !importId;
            importId = answer.importId;
            if (created) void followWhileSending(answer.importId);
            sentRows += batch.leads.length;
            setStage((s) => (s.name === "uploading" ? { ...s, sentRows } : s));
            worker.send({ type: "next" });
          } catch (error) {
            failed = true;
            reject(error);
          } finally {
            inFlight -= 1;
          }
          pump();
        };
        const pump = () => {
          if (failed) return;
          const limit = importId ? CONCURRENT_UPLOADS : 1;
          while (inFlight < limit && waiting.length > 0) {
            const batch = waiting.shift();
            if (batch) void send(batch);
          }
          if (finished && inFlight === 0 && waiting.length === 0) resolve();
        };
        worker.listen((message) => {
          if (message.type === "batch") waiting.push(message);
          else if (message.type === "done") finished = true;
          else if (message.type === "error") {
            failed = true;
            reject(new Error(message.message));
          }
          pump();
        });
        worker.send({ type: "stream", mapping, batchSize: BULK_BATCH_SIZE });
      }).finally(() => {
        sending = false;
      });
      release();
      if (!importId) throw new Error("Nothing was uploaded");
      const status = await waitForImport(importId, showProgress);
      setReport(status);
      setStage({ name: "success", status });
      toast({
        title: "Bulk Upload Successful",
        description: `Successfully uploaded ${status.rowsInserted} aged leads`,
        variant: "success",
      });
      void queryClient.invalidateQueries({ queryKey: ["/api/admin/aged-leads"] });
    } catch (error) {
      giveUp(() =>
        toast({
          title: "Bulk Upload Failed",
          description: errorMessage(error, "Failed to upload leads"),
          variant: "destructive",
        }),
      );
    }
  }

  return { stage, review, report, inspect, showPage, closeReview, confirmMapping };
}

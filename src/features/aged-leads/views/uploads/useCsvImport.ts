/**
 * The bulk CSV import's state and work (product rules 15, 48), apart from its views: the file is read
 * in a Web Worker, auto-mapped or reviewed page by page, checked for a valid row anywhere in the file,
 * then streamed to the server in batches (a few in flight), and the import is followed to its report.
 * The main thread holds one review page and the batches in flight, never the file's rows.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { ApiError, errorMessage } from "../../../../lib/api";
import { toast } from "../../../../ui/toast";
import {
  AUTO_MAP_REQUIRED,
  autoMapColumns,
  BULK_BATCH_SIZE,
  FIELD_LABELS,
  type FieldMapping,
  type LeadField,
  MANUAL_MAP_REQUIRED,
  missingFields,
} from "../../csv-mapping";
import type { ReviewRow } from "./csv-protocol";
import { CsvWorker, type WorkerAnswer } from "./csv-worker";
import { type ImportStatus, importStatus, POLL_MS, uploadBatch, waitForImport } from "./import-api";
import {
  clearUnfinished,
  fingerprint,
  notTheSameFile,
  readUnfinished,
  receivedBatches,
  saveUnfinished,
  type UnfinishedUpload,
} from "./resume";

const SUCCESS_BANNER_MS = 3000;
/** Batches uploaded at once once the import exists (the first batch creates it alone). */
const CONCURRENT_UPLOADS = 2;

export type { ImportStatus };

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

const fileError = () =>
  toast({ title: "File Processing Error", description: "Error processing the uploaded file", variant: "destructive" });
const noValidData = () =>
  toast({ title: "No Valid Data", description: "No row has a name, phone and state.", variant: "destructive" });
const fieldList = (fields: readonly LeadField[]) => fields.map((f) => FIELD_LABELS[f]).join(", ");

function isCsvFile(file: File): boolean {
  return /\.csv$/i.test(file.name) || file.type === "text/csv";
}

/** `certificateRequired`: the new import's leads without a consent certificate are stored, never sold (decision 0041). */
export function useCsvImport(settings: { certificateRequired?: boolean } = {}) {
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

  /** An upload a failed browser or server left unfinished: the admin may resume it with the same file. */
  const [interrupted, setInterrupted] = useState<UnfinishedUpload | null>(null);
  useEffect(() => setInterrupted(readUnfinished()), []);

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

  /** A new parse worker for `file`, the last one's dropped. */
  function startReading(file: File): CsvWorker {
    release();
    const worker = new CsvWorker();
    current.current = { worker, file };
    setStage({ name: "reading" });
    setReport(null);
    return worker;
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
    const worker = startReading(file);
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
    await upload(worker, file, inspected.totalRows, mapping);
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
    const file = current.current?.file;
    if (!review || !worker || !file) return;
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
    await upload(worker, file, review.totalRows, mapping);
  }

  /**
   * Streams the file's batches to the server (the first alone: it creates the import), then follows it.
   * A resumed upload names its import and skips the batches the server already has.
   */
  async function upload(
    worker: CsvWorker,
    file: File,
    totalRows: number,
    mapping: FieldMapping,
    resume?: { importId: string; received: Set<number> },
  ) {
    const fileName = file.name;
    setStage({ name: "uploading", fileName, totalRows, sentRows: 0, status: null });
    let importId: string | undefined = resume?.importId;
    const skip = resume?.received ?? new Set<number>();
    const print = await fingerprint(file).catch(() => "");
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
    if (importId) void followWhileSending(importId);
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
              ...(importId ? { importId } : { fileName, certificateRequired: settings.certificateRequired ?? false }),
              batchNumber: batch.batchNumber,
              leads: batch.leads,
              fieldMapping: mapping,
            });
            const created = !importId;
            importId = answer.importId;
            if (created) {
              // From here on the upload can be resumed if this browser or the server fails.
              saveUnfinished({
                importId,
                fileName,
                size: file.size,
                fingerprint: print,
                totalRows,
                mapping,
                startedAt: Date.now(),
              });
              void followWhileSending(answer.importId);
            }
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
            if (!batch) continue;
            if (skip.has(batch.batchNumber)) {
              // Received before the interruption: counted as sent, never sent twice.
              sentRows += batch.leads.length;
              setStage((s) => (s.name === "uploading" ? { ...s, sentRows } : s));
              worker.send({ type: "next" });
            } else void send(batch);
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
      // Every batch is on the server: nothing is left to resume (a stalled one is the server's to resend).
      clearUnfinished();
      setInterrupted(null);
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
      const unfinished = readUnfinished();
      setInterrupted(unfinished);
      const resumable = unfinished ? " Choose the same file again to resume the upload." : "";
      giveUp(() =>
        toast({
          title: "Bulk Upload Failed",
          description: `${errorMessage(error, "Failed to upload leads")}${resumable}`,
          variant: "destructive",
        }),
      );
    }
  }

  /** "Resume upload": the interrupted upload's file again; only the batches the server never received are sent. */
  async function resumeUpload(file: File) {
    const note = interrupted;
    if (!note) return;
    const wrongFile = await notTheSameFile(file, note);
    if (wrongFile) {
      toast({ title: "Not the same file", description: wrongFile, variant: "destructive" });
      return;
    }
    const worker = startReading(file);
    try {
      const [{ totalRows }, received] = await Promise.all([
        worker.ask({ type: "inspect", file }, "inspected"),
        receivedBatches(note.importId),
      ]);
      await upload(worker, file, totalRows, note.mapping, { importId: note.importId, received });
    } catch (error) {
      // An import the server no longer knows cannot be resumed: forget it.
      if (error instanceof ApiError && error.status === 404) discardInterrupted();
      const description = errorMessage(error, "The file or the import could not be read.");
      giveUp(() => toast({ title: "Cannot resume", description, variant: "destructive" }));
    }
  }

  function discardInterrupted() {
    clearUnfinished();
    setInterrupted(null);
  }

  return {
    stage,
    review,
    report,
    interrupted,
    inspect,
    resumeUpload,
    discardInterrupted,
    showPage,
    closeReview,
    confirmMapping,
  };
}

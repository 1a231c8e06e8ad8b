/**
 * Bulk CSV upload (spec §2, §4, §5, §8; PRODUCT.md D8): template, drop area, streaming parse in a worker,
 * auto-mapping or the review dialog, batches of 1,000 to the server, live progress and a final report.
 */

import { useEffect, useRef, useState } from "react";
import {
  AUTO_MAP_REQUIRED,
  autoMapColumns,
  BULK_BATCH_SIZE,
  FIELD_LABELS,
  type FieldMapping,
  hasRequiredValues,
  MANUAL_MAP_REQUIRED,
  mapRow,
  missingFields,
  TEMPLATE_FILE_NAME,
  templateCsv,
} from "../../../domain/csv-mapping";
import { AGED_LEAD_PRICING_RULE } from "../../../domain/pricing";
import type { ImportStatus } from "../../../domain/schemas/admin-leads";
import { apiRequest, errorMessage } from "../../../lib/api";
import { useQueryClient } from "../../../lib/query";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { buttonClass } from "../../../ui/styles";
import { toast } from "../../../ui/toast";
import type { FromWorker, ToWorker } from "./csv-protocol";
import { ReviewDialog } from "./ReviewDialog";

const SUCCESS_BANNER_MS = 3000;
const POLL_MS = 1000;

export interface Inspected {
  file: File;
  headers: string[];
  preview: string[][];
  totalRows: number;
}

type Stage =
  | { name: "idle" }
  | { name: "reading" }
  | { name: "uploading"; fileName: string; totalRows: number; sentRows: number; status: ImportStatus | null }
  | { name: "success"; status: ImportStatus };

function startWorker(): Worker {
  return new Worker(new URL("./csv-parse.worker.ts", import.meta.url), { type: "module" });
}

const hasValidRows = (inspected: Inspected, mapping: FieldMapping) =>
  inspected.preview.some((row, i) => hasRequiredValues(mapRow(row, mapping, i + 2)));

export function BulkUpload() {
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ name: "idle" });
  const [review, setReview] = useState<{ inspected: Inspected; mapping: FieldMapping } | null>(null);
  const [report, setReport] = useState<ImportStatus | null>(null);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (stage.name !== "success") return;
    const timer = setTimeout(() => setStage({ name: "idle" }), SUCCESS_BANNER_MS);
    return () => clearTimeout(timer);
  }, [stage.name]);

  function downloadTemplate() {
    const url = URL.createObjectURL(new Blob([templateCsv()], { type: "text/csv" }));
    const link = Object.assign(document.createElement("a"), { href: url, download: TEMPLATE_FILE_NAME });
    link.click();
    URL.revokeObjectURL(url);
  }

  function inspect(file: File) {
    if (!/\.csv$/i.test(file.name) && file.type !== "text/csv") {
      toast({ title: "Invalid File", description: "Please choose a CSV file.", variant: "destructive" });
      return;
    }
    setStage({ name: "reading" });
    setReport(null);
    const worker = startWorker();
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      worker.terminate();
      const message = event.data;
      if (message.type !== "inspected") {
        setStage({ name: "idle" });
        toast({
          title: "File Processing Error",
          description: "Error processing the uploaded file",
          variant: "destructive",
        });
        return;
      }
      setStage({ name: "idle" });
      const inspected: Inspected = {
        file,
        headers: message.headers,
        preview: message.preview,
        totalRows: message.totalRows,
      };
      if (message.headers.length === 0 || message.totalRows === 0) {
        toast({
          title: "Invalid File",
          description: "File must contain at least a header row and one data row",
          variant: "destructive",
        });
        return;
      }
      try {
        const mapping = autoMapColumns(message.headers);
        const missing = missingFields(mapping, AUTO_MAP_REQUIRED);
        if (missing.length > 0) {
          toast({
            title: "Auto-Mapping Failed",
            description: `Could not find columns for ${missing.map((f) => FIELD_LABELS[f]).join(", ")}. Please map them.`,
            variant: "destructive",
          });
          setReview({ inspected, mapping });
          return;
        }
        if (!hasValidRows(inspected, mapping)) {
          toast({ title: "No Valid Data", description: "No row has a name, phone and state.", variant: "destructive" });
          return;
        }
        void upload(inspected, mapping);
      } catch {
        toast({
          title: "Auto-Mapping Error",
          description: "Error automatically processing your file. Please try manual mapping.",
          variant: "destructive",
        });
        setReview({ inspected, mapping: {} });
      }
    };
    worker.onerror = () => {
      worker.terminate();
      setStage({ name: "idle" });
      toast({
        title: "File Processing Error",
        description: "Error processing the uploaded file",
        variant: "destructive",
      });
    };
    worker.postMessage({ type: "inspect", file } satisfies ToWorker);
  }

  function confirmMapping(mapping: FieldMapping) {
    if (!review) return;
    const missing = missingFields(mapping, MANUAL_MAP_REQUIRED);
    if (missing.length > 0) {
      toast({
        title: "Missing Field Mappings",
        description: `Please map: ${missing.map((f) => FIELD_LABELS[f]).join(", ")}`,
        variant: "destructive",
      });
      return;
    }
    try {
      if (!hasValidRows(review.inspected, mapping)) {
        toast({ title: "No Valid Data", description: "No row has a name, phone and state.", variant: "destructive" });
        return;
      }
    } catch {
      toast({ title: "Mapping Error", description: "Error applying field mapping to data", variant: "destructive" });
      return;
    }
    const inspected = review.inspected;
    setReview(null);
    void upload(inspected, mapping);
  }

  async function waitForImport(importId: string, onProgress: (status: ImportStatus) => void): Promise<ImportStatus> {
    for (;;) {
      const status = await apiRequest<ImportStatus>("GET", `/api/imports/${importId}`);
      onProgress(status);
      if (status.done) return status;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async function upload(inspected: Inspected, mapping: FieldMapping) {
    const { file, totalRows } = inspected;
    setStage({ name: "uploading", fileName: file.name, totalRows, sentRows: 0, status: null });
    const worker = startWorker();
    let importId: string | undefined;
    let sentRows = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        const queue: Extract<FromWorker, { type: "batch" }>[] = [];
        let sending = false;
        let finished = false;
        const pump = async () => {
          if (sending) return;
          sending = true;
          try {
            while (queue.length > 0) {
              const batch = queue.shift();
              if (!batch) break;
              const answer = await apiRequest<{ importId: string }>("POST", "/api/bulk-upload-aged-leads", {
                ...(importId ? { importId } : { fileName: file.name }),
                batchNumber: batch.batchNumber,
                leads: batch.leads,
                fieldMapping: mapping,
              });
              importId = answer.importId;
              sentRows += batch.leads.length;
              setStage((s) => (s.name === "uploading" ? { ...s, sentRows } : s));
            }
            sending = false;
            if (finished) resolve();
            else worker.postMessage({ type: "next" } satisfies ToWorker);
          } catch (error) {
            reject(error);
          }
        };
        worker.onmessage = (event: MessageEvent<FromWorker>) => {
          const message = event.data;
          if (message.type === "batch") {
            queue.push(message);
            void pump();
          } else if (message.type === "done") {
            finished = true;
            if (!sending && queue.length === 0) resolve();
          } else if (message.type === "error") {
            reject(new Error(message.message));
          }
        };
        worker.onerror = () => reject(new Error("File Processing Error"));
        worker.postMessage({ type: "stream", file, mapping, batchSize: BULK_BATCH_SIZE } satisfies ToWorker);
      });
      worker.terminate();
      if (!importId) throw new Error("Nothing was uploaded");
      const status = await waitForImport(importId, (progress) =>
        setStage((s) => (s.name === "uploading" ? { ...s, status: progress } : s)),
      );
      setReport(status);
      setStage({ name: "success", status });
      toast({
        title: "Bulk Upload Successful",
        description: `Successfully uploaded ${status.rowsInserted} aged leads`,
        variant: "success",
      });
      void queryClient.invalidateQueries({ queryKey: ["/api/admin/aged-leads"] });
    } catch (error) {
      worker.terminate();
      setStage({ name: "idle" });
      toast({
        title: "Bulk Upload Failed",
        description: errorMessage(error, "Failed to upload leads"),
        variant: "destructive",
      });
    }
  }

  const busy = stage.name === "reading" || stage.name === "uploading";
  const processed =
    stage.name === "uploading" && stage.status
      ? stage.status.rowsInserted + stage.status.rowsDuplicate + stage.status.rowsRejected
      : 0;
  const percent =
    stage.name === "uploading" && stage.totalRows > 0
      ? Math.round(((stage.sentRows + processed) / (2 * stage.totalRows)) * 100)
      : 0;

  return (
    <Card className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="text-lg font-bold">Bulk upload (CSV)</h3>
          <p className="text-sm text-ink-soft">Automatic pricing by lead age: {AGED_LEAD_PRICING_RULE}.</p>
        </div>
        <Button variant="secondary" onClick={downloadTemplate}>
          Download template
        </Button>
      </div>

      {stage.name === "success" ? (
        <div role="status" className="rounded-xl border border-brand-100 bg-brand-50 p-6 text-center">
          <p className="text-xl font-bold text-brand-700">Upload Complete!</p>
          <p className="mt-1 text-ink-soft">{stage.status.rowsInserted} leads added.</p>
        </div>
      ) : stage.name === "uploading" ? (
        <div role="status" className="space-y-3 rounded-xl border border-line p-6">
          <p className="font-semibold">Uploading {stage.fileName}…</p>
          <p className="text-sm text-ink-soft">Leads are processed in batches of 1,000 with automatic pricing.</p>
          <div
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-label="Upload progress"
            className="h-3 overflow-hidden rounded-full bg-line"
          >
            <div className="h-full bg-brand-600 transition-all" style={{ width: `${percent}%` }} />
          </div>
          <p className="text-sm text-ink-soft">
            Sent {stage.sentRows} of {stage.totalRows} rows · saved {processed}
          </p>
        </div>
      ) : (
        <section
          aria-label="CSV drop area"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            const file = e.dataTransfer.files[0];
            if (file) inspect(file);
          }}
          className={`rounded-xl border-2 border-dashed p-8 text-center ${dragging ? "border-brand-600 bg-brand-50" : "border-line"}`}
        >
          <p className="font-medium">{stage.name === "reading" ? "Reading your file…" : "Drop a CSV file here"}</p>
          <p className="mt-1 text-sm text-ink-soft">
            Columns: Name, Phone, State, Form fill time (optional), Email (optional)
          </p>
          <input
            ref={picker}
            id="bulk-csv"
            type="file"
            accept=".csv,text/csv"
            className="sr-only"
            disabled={busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) inspect(file);
              e.target.value = "";
            }}
          />
          <label htmlFor="bulk-csv" className={`${buttonClass("primary", "md", "mt-4")} cursor-pointer`}>
            Choose CSV file
          </label>
        </section>
      )}

      {report && (
        <section aria-labelledby="import-report" className="space-y-3 rounded-xl bg-surface p-4">
          <h4 id="import-report" className="font-semibold">
            Import report: {report.fileName}
          </h4>
          <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
            {[
              ["Rows received", report.rowsReceived],
              ["Inserted", report.rowsInserted],
              ["Duplicates skipped", report.rowsDuplicate],
              ["Rejected", report.rowsRejected],
            ].map(([label, value]) => (
              <div key={label}>
                <dt className="text-muted">{label}</dt>
                <dd
                  className="text-lg font-bold"
                  data-testid={`report-${String(label).toLowerCase().replaceAll(" ", "-")}`}
                >
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          {report.rejections.length > 0 && (
            <ul className="max-h-40 overflow-y-auto text-sm text-ink-soft">
              {report.rejections.slice(0, 100).map((r) => (
                <li key={r.rowNumber}>
                  Row {r.rowNumber}: {r.reason}
                </li>
              ))}
            </ul>
          )}
          <a href={`/api/imports/${report.id}/report.csv`} download className={buttonClass("secondary")}>
            Download report (CSV)
          </a>
        </section>
      )}

      {review && (
        <ReviewDialog
          inspected={review.inspected}
          initialMapping={review.mapping}
          onClose={() => setReview(null)}
          onConfirm={confirmMapping}
        />
      )}
    </Card>
  );
}

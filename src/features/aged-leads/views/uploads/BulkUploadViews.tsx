/** The bulk upload's views (product rule 15): the drop area, the progress of an import, and its final report. */
import { useRef, useState } from "react";
import { formatCount, formatDateTime } from "../../../../domain/format";
import { useHydrated } from "../../../../ui/hydrated";
import { buttonClass } from "../../../../ui/styles";
import { BULK_BATCH_SIZE, STATUS_REJECTIONS } from "../../csv-mapping";
import type { UnfinishedUpload } from "./resume";
import type { ImportStatus, Stage } from "./useCsvImport";

/** `columns` and `inputId`: another file than aged leads' (the call-backs' CSV, decision 0069). */
export function DropArea({
  reading,
  onFile,
  columns = "Columns: Name, Phone, State, Form fill time (optional), Email (optional), consent evidence (optional: see the template)",
  inputId = "bulk-csv",
}: {
  reading: boolean;
  onFile: (file: File) => void;
  columns?: string;
  inputId?: string;
}) {
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  // A file chosen before React hydrates would be dropped (decision 0009): the picker waits for it.
  const hydrated = useHydrated();
  return (
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
        if (file && !reading) onFile(file);
      }}
      className={`rounded-xl border-2 border-dashed p-8 text-center ${dragging ? "border-brand-600 bg-brand-50" : "border-line"}`}
    >
      <p className="font-medium" role={reading ? "status" : undefined}>
        {reading ? "Reading your file…" : "Drop a CSV file here"}
      </p>
      <p className="mt-1 text-sm text-ink-soft">{columns}</p>
      <input
        ref={picker}
        id={inputId}
        type="file"
        accept=".csv,text/csv"
        className="sr-only"
        disabled={reading || !hydrated}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = "";
        }}
      />
      <label htmlFor={inputId} className={`${buttonClass("primary", "md", "mt-4")} cursor-pointer`}>
        Choose CSV file
      </label>
    </section>
  );
}

export function UploadProgress({
  stage,
  unit = "Leads",
  batchSize = BULK_BATCH_SIZE,
}: {
  stage: Extract<Stage, { name: "uploading" }>;
  unit?: string;
  batchSize?: number;
}) {
  const processed = stage.status
    ? stage.status.rowsInserted + stage.status.rowsDuplicate + stage.status.rowsRejected
    : 0;
  const percent = stage.totalRows > 0 ? Math.round(((stage.sentRows + processed) / (2 * stage.totalRows)) * 100) : 0;
  return (
    <div role="status" className="space-y-3 rounded-xl border border-line p-6">
      <p className="font-semibold">Uploading {stage.fileName}…</p>
      <p className="text-sm text-ink-soft">
        {unit === "Leads"
          ? `Leads are processed in batches of ${formatCount(batchSize)} with automatic pricing.`
          : `The ${unit} are processed in batches of ${formatCount(batchSize)}.`}
      </p>
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
      {(stage.status?.stalledBatches ?? 0) > 0 && (
        <p className="text-sm font-medium text-amber-800" data-testid="import-stalled">
          Stalled, resuming: {stage.status?.stalledBatches}{" "}
          {stage.status?.stalledBatches === 1 ? "batch is" : "batches are"} being sent again. Nothing is lost; you may
          leave this page.
        </p>
      )}
    </div>
  );
}

/** An upload that a browser or server failure interrupted: the same file again sends only what is missing. */
export function InterruptedUpload({
  upload,
  onFile,
  onDiscard,
}: {
  upload: UnfinishedUpload;
  onFile: (file: File) => void;
  onDiscard: () => void;
}) {
  return (
    <section
      aria-labelledby="interrupted-upload"
      className="space-y-3 rounded-xl border border-amber-300 bg-amber-50 p-4"
    >
      <h4 id="interrupted-upload" className="font-semibold">
        The upload of {upload.fileName} was interrupted
      </h4>
      <p className="text-sm">
        Started {formatDateTime(upload.startedAt)}. Choose the same file again: only the batches the server never
        received are sent, and nothing is saved twice.
      </p>
      <div className="flex flex-wrap gap-2">
        <input
          id="resume-csv"
          type="file"
          accept=".csv,text/csv"
          className="sr-only"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) onFile(file);
            e.target.value = "";
          }}
        />
        <label htmlFor="resume-csv" className={`${buttonClass("primary")} cursor-pointer`}>
          Resume upload
        </label>
        <button type="button" className={buttonClass("secondary")} onClick={onDiscard}>
          Discard
        </button>
      </div>
    </section>
  );
}

export function SuccessBanner({ status }: { status: ImportStatus }) {
  return (
    <div role="status" className="rounded-xl border border-brand-100 bg-brand-50 p-6 text-center">
      <p className="text-xl font-bold text-brand-700">Upload Complete!</p>
      <p className="mt-1 text-ink-soft">{status.rowsInserted} leads added.</p>
    </div>
  );
}

export function ImportReport({ report }: { report: ImportStatus }) {
  const shown = report.rejections.slice(0, STATUS_REJECTIONS);
  return (
    <section aria-labelledby="import-report" className="space-y-3 rounded-xl bg-surface p-4">
      <h4 id="import-report" className="font-semibold">
        Import report: {report.fileName}
      </h4>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        {(report.kind === "callbacks"
          ? [
              ["Rows received", report.rowsReceived],
              ["Taken in", report.rowsInserted],
              ["Placed", report.rowsPlaced],
              ["Waiting", report.rowsInserted - report.rowsPlaced],
              ["Rejected", report.rowsRejected],
            ]
          : [
              ["Rows received", report.rowsReceived],
              ["Inserted", report.rowsInserted],
              ["Duplicates skipped", report.rowsDuplicate],
              ["Rejected", report.rowsRejected],
              ["With certificate", report.rowsCertified],
              ["Without certificate", report.rowsUncertified],
              ["Suppressed", report.rowsSuppressed],
            ]
        ).map(([label, value]) => (
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
      {report.certificateRequired && report.rowsUncertified > 0 && (
        <p className="text-sm" data-testid="report-withheld">
          This upload sells only leads with a certificate: the {report.rowsUncertified} without one are stored but not
          for sale.
        </p>
      )}
      {report.rowsSuppressed > 0 && (
        <p className="text-sm text-ink-soft">
          {report.rowsSuppressed} inserted {report.rowsSuppressed === 1 ? "lead is" : "leads are"} on a Do Not Call
          list: stored, and not for sale until the number leaves the list.
        </p>
      )}
      {shown.length > 0 && (
        <>
          {report.rowsRejected > shown.length && (
            <p className="text-sm text-ink-soft">
              The first {shown.length} of {report.rowsRejected} rejected rows; the report lists them all.
            </p>
          )}
          <ul className="max-h-40 overflow-y-auto text-sm text-ink-soft">
            {shown.map((r) => (
              <li key={r.rowNumber}>
                Row {r.rowNumber}: {r.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      <a href={`/api/imports/${report.id}/report.csv`} download className={buttonClass("secondary")}>
        Download report (CSV)
      </a>
    </section>
  );
}

/** What a suppression list upload shows: its progress, a refused file, the review of rejected lines, the report. */
import type { ReactNode } from "react";
import { formatCount } from "../../../domain/format";
import { Button } from "../../../ui/button";
import { Table } from "../../../ui/table";
import type { SuppressionUploadView } from "../schemas/suppression";
import type { SuppressionFileReport } from "../suppression-file";
import type { UploadStage } from "./useSuppressionUpload";

const n = formatCount;
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

function Bar({ percent, label }: { percent: number; label: string }) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div
      role="progressbar"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-label={label}
      className="h-3 overflow-hidden rounded-full bg-line"
    >
      <div className="h-full bg-brand-600 transition-all" style={{ width: `${value}%` }} />
    </div>
  );
}

/** Reading, sending and applying, with one bar each stage. */
export function UploadProgress({ stage }: { stage: UploadStage }) {
  let title: string;
  let detail: ReactNode;
  let percent: number;
  if (stage.name === "checking") {
    title = `Checking ${stage.fileName}…`;
    detail = `Read ${mb(stage.bytes)} of ${mb(stage.size)}. Nothing is sent until the whole file has been read.`;
    percent = stage.size > 0 ? (stage.bytes / stage.size) * 100 : 0;
  } else if (stage.name === "sending") {
    const applied =
      (stage.upload?.numbersAdded ?? 0) + (stage.upload?.numbersUnchanged ?? 0) + (stage.upload?.numbersRemoved ?? 0);
    title = `Uploading ${stage.fileName}…`;
    detail = `Sent ${n(stage.sent)} of ${n(stage.total)} numbers · applied ${n(applied)}`;
    percent = stage.total > 0 ? ((stage.sent + applied) / (2 * stage.total)) * 100 : 0;
  } else if (stage.name === "applying") {
    const { upload } = stage;
    const expected = upload.batchesExpected ?? upload.batchesReceived;
    title = `Applying ${stage.fileName}…`;
    detail =
      upload.batchesDone < expected
        ? `Applied ${n(upload.batchesDone)} of ${n(expected)} batches`
        : "Removing the numbers the file no longer lists and freeing their leads…";
    percent = expected > 0 ? 50 + (upload.batchesDone / expected) * 50 : 100;
  } else return null;
  return (
    <div role="status" className="space-y-3 rounded-xl border border-line p-5">
      <p className="font-semibold">{title}</p>
      <Bar percent={percent} label="Upload progress" />
      <p className="text-sm text-ink-soft" data-testid="suppression-progress">
        {detail}
      </p>
    </div>
  );
}

function Rejections({ report }: { report: SuppressionFileReport }) {
  if (report.rejections.length === 0) return null;
  return (
    <>
      {report.rejected > report.rejections.length && (
        <p className="text-sm text-ink-soft">
          The first {n(report.rejections.length)} of {n(report.rejected)} rejected lines:
        </p>
      )}
      <Table label="Rejected lines" headers={["Line", "Why"]}>
        {report.rejections.map((rejection) => (
          <tr key={rejection.line} className="border-t border-line">
            <td className="px-4 py-2">{n(rejection.line)}</td>
            <td className="px-4 py-2 whitespace-normal">{rejection.reason}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}

/** A file refused whole: nothing was sent, nothing changed. */
export function FileRefused({
  stage,
  onClose,
}: {
  stage: Extract<UploadStage, { name: "refused" | "failed" }>;
  onClose: () => void;
}) {
  return (
    <section
      role="alert"
      aria-labelledby="suppression-refused"
      className="space-y-3 rounded-xl border border-red-300 bg-red-50 p-5"
    >
      <h4 id="suppression-refused" className="font-semibold text-red-900">
        {stage.name === "refused" ? `${stage.fileName} was not loaded` : `The upload of ${stage.fileName} failed`}
      </h4>
      <p className="text-sm text-red-900">{stage.message}</p>
      <p className="text-sm text-red-900">
        {stage.name === "refused"
          ? "Nothing was changed: no number of this file is on any list."
          : "A list changes only once the whole file has been sent: upload the file again (nothing is counted twice)."}
      </p>
      {stage.name === "refused" && <Rejections report={stage.report} />}
      <Button variant="secondary" onClick={onClose}>
        Choose another file
      </Button>
    </section>
  );
}

/** Some lines are not numbers: the uploader decides whether the rest is loaded. Nothing is sent before. */
export function ReviewRejected({
  stage,
  onLoad,
  onCancel,
}: {
  stage: Extract<UploadStage, { name: "review" }>;
  onLoad: () => void;
  onCancel: () => void;
}) {
  const { report } = stage;
  return (
    <section
      aria-labelledby="suppression-review"
      className="space-y-3 rounded-xl border border-amber-300 bg-amber-50 p-5"
    >
      <h4 id="suppression-review" className="font-semibold">
        {n(report.rejected)} {report.rejected === 1 ? "line" : "lines"} of {stage.fileName} cannot be loaded
      </h4>
      <p className="text-sm">
        {n(report.accepted)} numbers are valid. Nothing has been sent yet: load the valid numbers, or cancel and fix the
        file.
      </p>
      <Rejections report={report} />
      <div className="flex flex-wrap gap-2">
        <Button onClick={onLoad}>Load the {n(report.accepted)} valid numbers</Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </section>
  );
}

/** The report of a finished upload. */
export function UploadReport({ upload, onClose }: { upload: SuppressionUploadView; onClose?: () => void }) {
  const file = upload.fileReport;
  const rows: [string, number][] = [
    ["Lines read", file?.lines ?? 0],
    ["Numbers in the file", upload.numbersReceived],
    ["New on the list", upload.numbersAdded],
    ["Already on it", upload.numbersUnchanged],
    ["Taken off", upload.numbersRemoved],
    ["Repeated in the file", file?.duplicates ?? 0],
    ["Rejected lines", file?.rejected ?? 0],
  ];
  return (
    <section
      role="status"
      aria-labelledby="suppression-report"
      className="space-y-3 rounded-xl border border-brand-100 bg-brand-50 p-5"
    >
      <h4 id="suppression-report" className="font-semibold text-brand-700">
        Upload complete: {upload.fileName}
      </h4>
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt className="text-ink-soft">{label}</dt>
            <dd className="text-lg font-bold" data-testid={`suppression-${label.toLowerCase().replaceAll(" ", "-")}`}>
              {n(value)}
            </dd>
          </div>
        ))}
      </dl>
      {file && <Rejections report={{ ...file, rejections: file.rejections }} />}
      {onClose && (
        <Button variant="secondary" onClick={onClose}>
          Upload another file
        </Button>
      )}
    </section>
  );
}

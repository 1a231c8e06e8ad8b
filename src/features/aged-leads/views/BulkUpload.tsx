/**
 * Bulk CSV upload (product rules 15, 48): template, drop area, streaming parse in a worker,
 * auto-mapping or the review dialog, batches of 1,000 to the server, live progress and a final report.
 * The work is in `useCsvImport`; this file lays out its views.
 */
import { lazy, Suspense, useState } from "react";
import { Button } from "../../../ui/button";
import { Card } from "../../../ui/card";
import { useHydrated } from "../../../ui/hydrated";
import { AGED_LEAD_PRICING_RULE } from "../../orders/index";
import { TEMPLATE_FILE_NAME } from "../csv-mapping";
import { DropArea, ImportReport, InterruptedUpload, SuccessBanner, UploadProgress } from "./uploads/BulkUploadViews";
import { useCsvImport } from "./uploads/useCsvImport";

/** The column review loads when a file needs it, not with the admin panel (decision 0032). */
const ReviewDialog = lazy(() => import("./ReviewDialog").then((m) => ({ default: m.ReviewDialog })));

/** The writer (papaparse) loads on the first click, not with the page. */
async function downloadTemplate() {
  const { templateCsv } = await import("../../../domain/csv-writer");
  const url = URL.createObjectURL(new Blob([templateCsv()], { type: "text/csv" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: TEMPLATE_FILE_NAME });
  link.click();
  URL.revokeObjectURL(url);
}

export function BulkUpload() {
  const [certificateRequired, setCertificateRequired] = useState(false);
  // Like the file picker: a click before hydration would be undone by it (decision 0009).
  const hydrated = useHydrated();
  const csv = useCsvImport({ certificateRequired });
  const { stage, review, report, interrupted } = csv;
  return (
    <Card className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="text-lg font-bold">Bulk upload (CSV)</h3>
          <p className="text-sm text-ink-soft">Automatic pricing by lead age: {AGED_LEAD_PRICING_RULE}.</p>
        </div>
        <Button variant="secondary" onClick={() => void downloadTemplate()}>
          Download template
        </Button>
      </div>

      {stage.name === "success" ? (
        <SuccessBanner status={stage.status} />
      ) : stage.name === "uploading" ? (
        <UploadProgress stage={stage} />
      ) : (
        <>
          {interrupted && stage.name === "idle" && (
            <InterruptedUpload
              upload={interrupted}
              onFile={(file) => void csv.resumeUpload(file)}
              onDiscard={csv.discardInterrupted}
            />
          )}
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4 accent-brand-600"
              checked={certificateRequired}
              disabled={stage.name === "reading" || !hydrated}
              onChange={(e) => setCertificateRequired(e.target.checked)}
            />
            <span>
              Sell only leads with a consent certificate (a TrustedForm URL or a Jornaya LeadiD). Leads of this upload
              without one are stored, but never listed or sold.
            </span>
          </label>
          <DropArea reading={stage.name === "reading"} onFile={(file) => void csv.inspect(file)} />
        </>
      )}

      {report && <ImportReport report={report} />}

      {review && (
        <Suspense>
          <ReviewDialog
            review={review}
            onPage={(page) => void csv.showPage(page)}
            onClose={csv.closeReview}
            onConfirm={(mapping) => void csv.confirmMapping(mapping)}
          />
        </Suspense>
      )}
    </Card>
  );
}

/**
 * Call-backs and appointments by CSV (docs/decisions/0069): the file is read here (call-back files are
 * small), its columns found by their headers, and its rows sent in batches of CALLBACK_IMPORT_BATCH_SIZE
 * to the import pipeline as a `callbacks` import; the bulk upload's views show the progress and the
 * report. Loaded only when the admin opens it (the admin page's weight, decision 0032).
 */

import { useQueryClient } from "@tanstack/react-query";
import Papa from "papaparse";
import { useState } from "react";
import { errorMessage } from "../../../lib/api";
import { Button } from "../../../ui/button";
import { toast } from "../../../ui/toast";
import type { Stage } from "../../aged-leads/views/index";
import {
  DropArea,
  ImportReport,
  type ImportStatus,
  UploadProgress,
  uploadBatch,
  waitForImport,
} from "../../aged-leads/views/index";
import {
  CALLBACK_IMPORT_BATCH_SIZE,
  CALLBACK_IMPORT_FIELDS,
  CALLBACK_IMPORT_REQUIRED,
  mapCallbackHeaders,
} from "../schemas/callback-import";

/** The template's header: the field names, which the header mapping reads back. */
const TEMPLATE = `${CALLBACK_IMPORT_FIELDS.join(",")}\r\nRuth Miller,ruth@example.com,3125550142,TX,12.50,75001,callback,2026-12-01,09:00,11:00,,2026-11-20 14:55:00,https://example.com/quote,,,,\r\n`;

function downloadTemplate() {
  const url = URL.createObjectURL(new Blob([TEMPLATE], { type: "text/csv" }));
  Object.assign(document.createElement("a"), { href: url, download: "callbacks-template.csv" }).click();
  URL.revokeObjectURL(url);
}

/** The file's rows as the server takes them: each mapped field's cell, and the row's line number. */
function fileRows(text: string) {
  const lines = Papa.parse<string[]>(text, { skipEmptyLines: "greedy" }).data;
  const [headers = [], ...cells] = lines;
  const mapping = mapCallbackHeaders(headers);
  const missing = CALLBACK_IMPORT_REQUIRED.filter((field) => mapping[field] === undefined);
  const rows = cells.map((line, index) => ({
    rowNumber: index + 2,
    ...Object.fromEntries(Object.entries(mapping).map(([field, column]) => [field, line[column] ?? ""])),
  }));
  return { missing, rows };
}

export function CallbackCsvUpload() {
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ name: "idle" });
  const [report, setReport] = useState<ImportStatus | null>(null);

  async function upload(file: File) {
    setReport(null);
    setStage({ name: "reading" });
    try {
      const { missing, rows } = fileRows(await file.text());
      if (missing.length > 0 || rows.length === 0) {
        toast({
          title: "Cannot read the file",
          description:
            rows.length === 0
              ? "The file has no rows."
              : `Columns not found: ${missing.join(", ")} (see the template).`,
          variant: "destructive",
        });
        setStage({ name: "idle" });
        return;
      }
      const uploading = { name: "uploading" as const, fileName: file.name, totalRows: rows.length, status: null };
      setStage({ ...uploading, sentRows: 0 });
      let importId: string | undefined;
      for (let start = 0; start < rows.length; start += CALLBACK_IMPORT_BATCH_SIZE) {
        const leads = rows.slice(start, start + CALLBACK_IMPORT_BATCH_SIZE);
        const batchNumber = start / CALLBACK_IMPORT_BATCH_SIZE + 1;
        const sent = await uploadBatch({ kind: "callbacks", importId, batchNumber, fileName: file.name, leads });
        importId = sent.importId;
        setStage({ ...uploading, sentRows: start + leads.length });
      }
      if (!importId) return;
      const done = await waitForImport(importId, (status) => setStage({ ...uploading, sentRows: rows.length, status }));
      setReport(done);
      void queryClient.invalidateQueries({ queryKey: ["/api/admin/callback-opportunities"] });
    } catch (error) {
      toast({ title: "Upload failed", description: errorMessage(error, "The upload failed"), variant: "destructive" });
    }
    setStage({ name: "idle" });
  }

  return (
    <div className="space-y-4" data-testid="callback-csv-upload">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-ink-soft">
          Each row is checked and placed like the form's: window in the prospect's time, Do Not Call lists, consent.
        </p>
        <Button variant="secondary" onClick={downloadTemplate}>
          Download template
        </Button>
      </div>
      {stage.name === "uploading" ? (
        <UploadProgress stage={stage} unit="call-backs" batchSize={CALLBACK_IMPORT_BATCH_SIZE} />
      ) : (
        <DropArea
          inputId="callback-csv"
          reading={stage.name === "reading"}
          onFile={(file) => void upload(file)}
          columns="Columns: name, email, phone, state, price, date, from, to (a call-back), optInAt; optional: zip, kind (callback or appointment), timeZone, optInUrl, trustedFormUrl, jornayaLeadId, consentText, ipAddress"
        />
      )}
      {report && <ImportReport report={report} />}
    </div>
  );
}

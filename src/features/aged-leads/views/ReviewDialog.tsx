/**
 * The CSV review dialog (product rule 48): field mapping, the file's rows with their numbers a page at a time
 * (the worker reads each page back from the file, so every row of any file can be reviewed), the total,
 * and the two buttons.
 */
import { useState } from "react";
import { formatCount } from "../../../domain/format";
import { Button } from "../../../ui/button";
import { Dialog } from "../../../ui/dialog";
import { Field, SelectField } from "../../../ui/input";
import { Table } from "../../../ui/table";
import {
  FIELD_LABELS,
  type FieldMapping,
  LEAD_FIELDS,
  MANUAL_MAP_REQUIRED,
  NOT_IN_FILE,
  OPTIONAL_FIELDS,
} from "../csv-mapping";
import { REVIEW_PAGE_ROWS } from "./uploads/csv-protocol";
import type { Review } from "./uploads/useCsvImport";

interface ReviewDialogProps {
  review: Review;
  onPage: (page: number) => void;
  onClose: () => void;
  onConfirm: (mapping: FieldMapping) => void;
}

const count = formatCount;

export function ReviewDialog({ review, onPage, onClose, onConfirm }: ReviewDialogProps) {
  const [mapping, setMapping] = useState<FieldMapping>(review.mapping);
  const [rowWanted, setRowWanted] = useState("");
  const columns = review.headers.map((header, index) => ({
    value: String(index),
    label: header || `Column ${index + 1}`,
  }));
  const pages = Math.max(1, Math.ceil(review.totalRows / REVIEW_PAGE_ROWS));
  const firstRow = review.page * REVIEW_PAGE_ROWS + 2;
  const lastRow = Math.min(firstRow + REVIEW_PAGE_ROWS - 1, review.totalRows + 1);
  const goToRow = () => {
    const row = Number.parseInt(rowWanted, 10);
    if (!Number.isFinite(row)) return;
    const clamped = Math.min(Math.max(row, 2), review.totalRows + 1);
    onPage(Math.floor((clamped - 2) / REVIEW_PAGE_ROWS));
  };

  return (
    <Dialog
      open
      size="xl"
      onOpenChange={(open) => !open && onClose()}
      title="Review your CSV"
      description={`${review.fileName}: ${count(review.totalRows)} rows.`}
    >
      <div className="space-y-5">
        <fieldset>
          <legend className="text-sm font-semibold">Field mapping</legend>
          <div className="mt-2 grid gap-3 sm:grid-cols-4">
            {LEAD_FIELDS.map((field) => (
              <SelectField
                key={field}
                label={`${FIELD_LABELS[field]}${MANUAL_MAP_REQUIRED.includes(field) ? " *" : ""}`}
                placeholder="Choose a column"
                options={
                  OPTIONAL_FIELDS.includes(field)
                    ? [...columns, { value: String(NOT_IN_FILE), label: "Not in this file" }]
                    : columns
                }
                value={mapping[field] === undefined ? "" : String(mapping[field])}
                onChange={(e) => {
                  const next = { ...mapping };
                  if (e.target.value === "") delete next[field];
                  else next[field] = Number(e.target.value);
                  setMapping(next);
                }}
              />
            ))}
          </div>
        </fieldset>
        <p className="text-sm font-medium">Total rows: {review.totalRows}</p>
        <div className="max-h-80 overflow-y-auto" aria-busy={review.loadingPage}>
          <Table headers={["Row", ...review.headers]}>
            {review.rows.map((row) => (
              <tr key={row.rowNumber} className="border-t border-line">
                <td className="px-4 py-2 text-muted">{row.rowNumber}</td>
                {review.headers.map((_, column) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns follow the file's header
                  <td key={column} className="px-4 py-2">
                    {row.cells[column] ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </Table>
        </div>
        <nav aria-label="Rows of the file" className="flex flex-wrap items-center gap-3 text-sm">
          <Button
            variant="secondary"
            disabled={review.page === 0 || review.loadingPage}
            onClick={() => onPage(review.page - 1)}
          >
            Previous rows
          </Button>
          <span role="status" aria-live="polite">
            {review.loadingPage
              ? "Loading rows…"
              : `Rows ${count(firstRow)}–${count(lastRow)} · page ${count(review.page + 1)} of ${count(pages)}`}
          </span>
          <Button
            variant="secondary"
            disabled={review.page >= pages - 1 || review.loadingPage}
            onClick={() => onPage(review.page + 1)}
          >
            Next rows
          </Button>
          <form
            className="flex items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              goToRow();
            }}
          >
            <Field
              label="Go to row"
              type="number"
              inputMode="numeric"
              min={2}
              max={review.totalRows + 1}
              value={rowWanted}
              onChange={(e) => setRowWanted(e.target.value)}
              className="w-32"
            />
            <Button type="submit" variant="secondary" disabled={review.loadingPage}>
              Show
            </Button>
          </form>
        </nav>
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onClose}>
            Close Preview
          </Button>
          <Button onClick={() => onConfirm(mapping)}>Confirm Upload</Button>
        </div>
      </div>
    </Dialog>
  );
}

/** The CSV review dialog (spec §2): field mapping, every row with its number, the total, and the two buttons. */
import { useState } from "react";
import {
  FIELD_LABELS,
  type FieldMapping,
  LEAD_FIELDS,
  MANUAL_MAP_REQUIRED,
  NOT_IN_FILE,
  OPTIONAL_FIELDS,
} from "../../../domain/csv-mapping";
import { Button } from "../../../ui/button";
import { Dialog } from "../../../ui/dialog";
import { SelectField } from "../../../ui/input";
import { Table } from "../../../ui/table";
import type { Inspected } from "./BulkUpload";

interface ReviewDialogProps {
  inspected: Inspected;
  initialMapping: FieldMapping;
  onClose: () => void;
  onConfirm: (mapping: FieldMapping) => void;
}

export function ReviewDialog({ inspected, initialMapping, onClose, onConfirm }: ReviewDialogProps) {
  const [mapping, setMapping] = useState<FieldMapping>(initialMapping);
  const columns = inspected.headers.map((header, index) => ({
    value: String(index),
    label: header || `Column ${index + 1}`,
  }));
  const shown = inspected.preview.length;

  return (
    <Dialog
      open
      size="xl"
      onOpenChange={(open) => !open && onClose()}
      title="Review your CSV"
      description={`${inspected.file.name}: ${inspected.totalRows} rows${shown < inspected.totalRows ? ` (the first ${shown} are shown)` : ""}.`}
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
        <p className="text-sm font-medium">Total rows: {inspected.totalRows}</p>
        <div className="max-h-80 overflow-y-auto">
          <Table headers={["Row", ...inspected.headers]}>
            {inspected.preview.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are shown in file order and never reordered
              <tr key={index} className="border-t border-line">
                <td className="px-4 py-2 text-muted">{index + 2}</td>
                {inspected.headers.map((_, column) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns follow the file's header
                  <td key={column} className="px-4 py-2">
                    {row[column] ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </Table>
        </div>
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

/**
 * Resuming an interrupted bulk upload. While a file's batches are being sent, the
 * browser keeps a note of the import (its id, the file's name, size and fingerprint, and the mapping) in
 * localStorage; the note goes once every batch was sent. A note left behind means the browser or the server
 * failed mid-way: the admin chooses the same file again and only the batches the server never received
 * are sent ("Resume upload"), as the server answers them (GET /api/imports/:id/batches).
 */

import { api, call } from "../../../../lib/api";
import type { FieldMapping } from "../../csv-mapping";

const STORAGE_KEY = "bulk-upload:unfinished";
/** The fingerprint reads this much of the file: enough to tell two exports apart, cheap for any size. */
const FINGERPRINT_BYTES = 1024 * 1024;

export interface UnfinishedUpload {
  importId: string;
  fileName: string;
  size: number;
  fingerprint: string;
  totalRows: number;
  mapping: FieldMapping;
  startedAt: number;
}

/** SHA-256 of the file's size and first megabyte, hex. */
export async function fingerprint(file: File): Promise<string> {
  const head = await file.slice(0, FINGERPRINT_BYTES).arrayBuffer();
  const bytes = new Uint8Array(head.byteLength + 8);
  bytes.set(new Uint8Array(head), 8);
  new DataView(bytes.buffer).setFloat64(0, file.size);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function readUnfinished(): UnfinishedUpload | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    const note = raw ? (JSON.parse(raw) as Partial<UnfinishedUpload>) : null;
    return note?.importId && note.fileName && typeof note.size === "number" && note.mapping
      ? (note as UnfinishedUpload)
      : null;
  } catch {
    return null;
  }
}

export function saveUnfinished(note: UnfinishedUpload): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(note));
  } catch {
    // Storage full or blocked: the upload goes on, it just cannot be resumed from another session.
  }
}

export function clearUnfinished(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing to clear
  }
}

/** Why `file` is not the interrupted upload's file, or null when it is. */
export async function notTheSameFile(file: File, note: UnfinishedUpload): Promise<string | null> {
  if (file.name !== note.fileName || file.size !== note.size || (await fingerprint(file)) !== note.fingerprint) {
    return `That is not ${note.fileName}: choose the file of the interrupted upload.`;
  }
  return null;
}

/** The batches of the import the server already has. */
export async function receivedBatches(importId: string): Promise<Set<number>> {
  const { received } = await call(api.imports[":id"].batches.$get({ param: { id: encodeURIComponent(importId) } }));
  return new Set(received);
}

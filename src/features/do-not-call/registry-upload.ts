/**
 * Loading a registry copy (docs/decisions/0083-loading-the-whole-registry.md): the rules the admin's tab,
 * `npm run dnc:load` and the Worker share, once. An upload is one registry copy (the National Registry or
 * one state's list) as the FTC delivers it: per area code a full list and/or a change list (registry-file.ts
 * reads them), sent to R2 as they are in parts of REGISTRY_PART_BYTES, then applied area code by area code.
 */
import type { RegistryFileKind } from "./registry-file.ts";

/**
 * Bytes a part carries: every part but a file's last is exactly this (R2 multipart uploads want equal parts
 * of at least 5 MiB). An average full list of the National Registry (about 8.7 MB) is two parts.
 */
export const REGISTRY_PART_BYTES = 8 * 1024 * 1024;
/** A file larger than any area code's full list can be (10 million lines of 12 bytes). */
export const REGISTRY_FILE_MAX_BYTES = 10_000_000 * 25;
/** Area codes times the two kinds of file. */
export const REGISTRY_UPLOAD_MAX_FILES = 800 * 2;
/** How many bytes of a file's start are checked (its first line) before the file is sent. */
export const REGISTRY_HEAD_BYTES = 64;

/** The states whose own Do Not Call lists the shop loads (their two letters are the scope). */
const REGISTRY_STATES = ["CO", "FL", "IN", "LA", "MA", "MO", "OK", "PA", "TN", "TX", "WY"] as const;
export const REGISTRY_SCOPES = ["national", ...REGISTRY_STATES] as const;
export type RegistryUploadScope = (typeof REGISTRY_SCOPES)[number];

export const REGISTRY_FILE_KINDS = ["full", "changes"] as const satisfies readonly RegistryFileKind[];

/**
 * An upload: files are sent (`receiving`), then applied area code by area code (`applying`), then
 * `applied` (every file) or `partly_applied` (some file refused: its area code kept its list); an upload
 * left receiving when the same copy's next one starts is `replaced`.
 */
export const REGISTRY_UPLOAD_STATUSES = ["receiving", "applying", "applied", "partly_applied", "replaced"] as const;
export type RegistryUploadStatus = (typeof REGISTRY_UPLOAD_STATUSES)[number];

/** A file: no part yet, some parts, every part (in R2 whole), refused (with a message), or applied. */
export const REGISTRY_FILE_STATUSES = ["waiting", "receiving", "received", "refused", "applied"] as const;
export type RegistryFileStatus = (typeof REGISTRY_FILE_STATUSES)[number];

export const REGISTRY_UPLOAD_STATUS_LABELS: Record<RegistryUploadStatus, string> = {
  receiving: "receiving files",
  applying: "applying",
  applied: "applied",
  partly_applied: "applied, some files refused",
  replaced: "replaced by a later upload",
};

/** How many parts a file of `size` bytes is sent in. */
export const partCount = (size: number) => Math.max(1, Math.ceil(size / REGISTRY_PART_BYTES));

/** The exact length of part `part` (1-based) of a file of `size` bytes. */
export const partLength = (size: number, part: number) =>
  Math.min(REGISTRY_PART_BYTES, size - (part - 1) * REGISTRY_PART_BYTES);

/**
 * A file's area code and kind from its path in the FTC's delivery as the simulator writes it
 * (`full/AAA.txt`, `changes/AAA.txt`) or flat (`AAA.txt`, `AAA-changes.txt`); null for any other file.
 */
export function registryFileOf(path: string): { areaCode: number; kind: RegistryFileKind } | null {
  const parts = path.split(/[\\/]/);
  const name = parts.at(-1) ?? "";
  const folder = parts.at(-2) ?? "";
  const changes = /^([2-9]\d\d)-changes\.txt$/.exec(name);
  if (changes) return { areaCode: Number(changes[1]), kind: "changes" };
  const plain = /^([2-9]\d\d)\.txt$/.exec(name);
  if (!plain) return null;
  return { areaCode: Number(plain[1]), kind: folder === "changes" ? "changes" : "full" };
}

export const REGISTRY_UPLOAD_MESSAGES = {
  scope: `Choose the registry: national or one of ${REGISTRY_STATES.join(", ")}`,
  downloadDate: "The download date must be a date (YYYY-MM-DD), not in the future",
  san: "The National Registry needs the shop's Subscription Account Number (letters and digits, at most 20)",
  noFiles: "Choose the registry's folder: it holds no file named AAA.txt (full lists) or changes/AAA.txt",
  tooManyFiles: `An upload holds at most ${REGISTRY_UPLOAD_MAX_FILES} files`,
  fileSize: `Each file is from 1 byte to ${REGISTRY_FILE_MAX_BYTES.toLocaleString("en-US")} bytes (an empty file is no list)`,
  twice: (areaCode: number, kind: RegistryFileKind) =>
    `Area code ${areaCode}'s ${kind === "full" ? "full list" : "change list"} is in the upload twice`,
  notReceiving: "This upload takes no more parts: it was finished or replaced",
  noPart: (part: number, parts: number) => `There is no part ${part}: this file is sent in ${parts} parts`,
  partLength: (part: number, expected: number, got: number) =>
    `Part ${part} must be ${expected} bytes, not ${got}: the part was cut off, send it again`,
  refused: "This file was refused; its area code keeps its list",
  missing: (count: number, first: string) =>
    `${count} ${count === 1 ? "file is" : "files are"} not complete yet (${first}): send the rest, then finish`,
  fullRefused: "Not applied: this area code's full list in the same upload was refused",
} as const;

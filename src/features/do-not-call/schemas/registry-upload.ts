/**
 * An admin's registry upload (docs/decisions/0083-loading-the-whole-registry.md): what starts it, and what
 * its status reads back (the tab and `npm run dnc:load` resume from it).
 */
import { z } from "../../../domain/schemas/zod";
import type { RegistryFileKind } from "../registry-file";
import {
  REGISTRY_FILE_KINDS,
  REGISTRY_FILE_MAX_BYTES,
  REGISTRY_SCOPES,
  REGISTRY_UPLOAD_MAX_FILES,
  REGISTRY_UPLOAD_MESSAGES,
  type RegistryFileStatus,
  type RegistryUploadScope,
  type RegistryUploadStatus,
} from "../registry-upload";
import { dayStart } from "../suppression";

/** A day lets a copy downloaded "today" in Hawaii through while it is already tomorrow in UTC. */
const DAY_SLACK_MS = 86_400_000;
const M = REGISTRY_UPLOAD_MESSAGES;

export const registryUploadStartSchema = z
  .object({
    scope: z.enum(REGISTRY_SCOPES, { error: M.scope }),
    downloadDate: z
      .string({ error: M.downloadDate })
      .trim()
      .refine((day) => {
        const start = dayStart(day);
        return start !== null && start <= Date.now() + DAY_SLACK_MS;
      }, M.downloadDate),
    san: z
      .string({ error: M.san })
      .trim()
      .regex(/^[A-Za-z0-9-]{1,20}$/, M.san)
      .optional(),
    files: z
      .array(
        z.object({
          areaCode: z.number().int().min(200).max(999),
          kind: z.enum(REGISTRY_FILE_KINDS),
          size: z.number({ error: M.fileSize }).int().min(1, M.fileSize).max(REGISTRY_FILE_MAX_BYTES, M.fileSize),
        }),
      )
      .min(1, M.noFiles)
      .max(REGISTRY_UPLOAD_MAX_FILES, M.tooManyFiles),
  })
  .superRefine((upload, ctx) => {
    if (upload.scope === "national" && !upload.san) ctx.addIssue({ code: "custom", path: ["san"], message: M.san });
    const seen = new Set<string>();
    for (const file of upload.files) {
      const key = `${file.areaCode}/${file.kind}`;
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["files"], message: M.twice(file.areaCode, file.kind) });
      seen.add(key);
    }
  });
export type RegistryUploadStart = z.infer<typeof registryUploadStartSchema>;

/** One file of an upload, as its status shows it. */
export interface RegistryUploadFileView {
  id: number;
  areaCode: number;
  kind: RegistryFileKind;
  size: number;
  parts: number;
  /** The parts already in (resume sends the others). */
  partsReceived: number[];
  status: RegistryFileStatus;
  message: string | null;
  line: number | null;
  /** After it was applied: the numbers the area code holds, and what a change list added and removed. */
  numbers: number | null;
  added: number | null;
  removed: number | null;
}

export interface RegistryUploadView {
  id: number;
  scope: RegistryUploadScope;
  downloadDate: string;
  san: string | null;
  status: RegistryUploadStatus;
  partBytes: number;
  createdAt: number;
  appliedAt: number | null;
  files: RegistryUploadFileView[];
}

/** An upload in the list of recent ones (no files). */
export type RegistryUploadSummary = Omit<RegistryUploadView, "files"> & {
  fileCount: number;
  filesApplied: number;
  filesRefused: number;
};

/**
 * Loads a registry folder through the shop's HTTP API, as the Do Not Call tab does
 * (docs/decisions/0083-loading-the-whole-registry.md): sign in as an admin, start (or resume) an upload
 * naming the files, send each file's missing parts read straight from disk (a few parts in memory at a
 * time, never a whole file), finish, then follow the Queue's progress area code by area code.
 */
import { open, readdir, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import {
  partCount,
  partLength,
  REGISTRY_PART_BYTES,
  registryFileOf,
} from "../../src/features/do-not-call/registry-upload.ts";
import type {
  RegistryUploadStart,
  RegistryUploadSummary,
  RegistryUploadView,
} from "../../src/features/do-not-call/schemas/registry-upload.ts";

/** Parts in flight at once: enough to keep the server busy, 4 × 8 MiB of memory. */
const PARTS_IN_FLIGHT = 4;
const POLL_MS = 1_000;
const ATTEMPTS = 4;

export interface LoadOptions {
  baseURL: string;
  username: string;
  password: string;
  dir: string;
  scope: RegistryUploadStart["scope"];
  downloadDate: string;
  san?: string;
  log?: (line: string) => void;
}

interface LocalFile {
  path: string;
  areaCode: number;
  kind: "full" | "changes";
  size: number;
}

/** Every registry file under `dir` (full/AAA.txt, changes/AAA.txt, AAA.txt, AAA-changes.txt). */
async function registryFilesIn(dir: string): Promise<LocalFile[]> {
  const found: LocalFile[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const file = registryFileOf(relative(dir, path));
    if (file) found.push({ path, ...file, size: (await stat(path)).size });
  }
  return found.sort((a, b) => a.areaCode - b.areaCode || a.kind.localeCompare(b.kind));
}

export class LoadError extends Error {}

/** The numbers the registry holds after the upload: per area code, its last applied file's count. */
export function numbersAfter(upload: RegistryUploadView): number {
  const perAreaCode = new Map<number, number>();
  // The status lists an area code's change list before its full list: the change list's count is the later one.
  for (const file of upload.files) {
    if (file.status === "applied" && !perAreaCode.has(file.areaCode)) perAreaCode.set(file.areaCode, file.numbers ?? 0);
  }
  return [...perAreaCode.values()].reduce((sum, count) => sum + count, 0);
}

function client(baseURL: string) {
  let cookie = "";
  async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${baseURL}/api${path}`, { ...init, headers: { ...init.headers, Cookie: cookie } });
      } catch (error) {
        if (attempt >= ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
        continue;
      }
      if (response.ok) {
        const set = response.headers.getSetCookie().map((one) => one.split(";")[0]);
        if (set.length > 0) cookie = set.join("; ");
        return (await response.json()) as T;
      }
      const body = (await response.json().catch(() => ({}))) as { message?: string; line?: number };
      if (response.status < 500 || attempt >= ATTEMPTS) {
        throw new LoadError(
          `${init.method ?? "GET"} ${path}: ${response.status} ${body.message ?? response.statusText}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
  const json = (method: string, body?: unknown): RequestInit => ({
    method,
    headers: { "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { call, json };
}

const sameFiles = (upload: RegistryUploadView, files: LocalFile[]) =>
  upload.files.length === files.length &&
  files.every((file) =>
    upload.files.some((one) => one.areaCode === file.areaCode && one.kind === file.kind && one.size === file.size),
  );

/** Loads the folder; answers the upload as applied (or partly applied) and the time spent sending. */
export async function loadRegistry(options: LoadOptions): Promise<{ upload: RegistryUploadView; sendMs: number }> {
  const log = options.log ?? console.log;
  const files = await registryFilesIn(options.dir);
  if (files.length === 0) throw new LoadError(`No registry files (full/AAA.txt, changes/AAA.txt) in ${options.dir}.`);
  const { call, json } = client(options.baseURL);
  await call("/login", json("POST", { username: options.username, password: options.password }));

  // Resume the same copy's upload still receiving when it names the same files; else start one.
  const { uploads } = await call<{ uploads: RegistryUploadSummary[] }>("/admin/registry-uploads");
  const receiving = uploads.find((one) => one.scope === options.scope && one.status === "receiving");
  let upload = receiving ? await call<RegistryUploadView>(`/admin/registry-uploads/${receiving.id}`) : null;
  if (upload && sameFiles(upload, files)) log(`Resuming upload ${upload.id}.`);
  else {
    const start: RegistryUploadStart = {
      scope: options.scope,
      downloadDate: options.downloadDate,
      ...(options.san ? { san: options.san } : {}),
      files: files.map(({ areaCode, kind, size }) => ({ areaCode, kind, size })),
    };
    upload = await call<RegistryUploadView>("/admin/registry-uploads", json("POST", start));
    log(`Started upload ${upload.id}: ${files.length} files.`);
  }
  const uploadId = upload.id;

  const started = performance.now();
  const jobs: { file: LocalFile; fileId: number; part: number }[] = [];
  for (const sent of upload.files) {
    if (sent.status === "refused") continue;
    const file = files.find((one) => one.areaCode === sent.areaCode && one.kind === sent.kind) as LocalFile;
    for (let part = 1; part <= partCount(sent.size); part++) {
      if (!sent.partsReceived.includes(part)) jobs.push({ file, fileId: sent.id, part });
    }
  }
  const refusedAtSending: string[] = [];
  let next = 0;
  let sentBytes = 0;
  let reported = started;
  async function worker() {
    const buffer = Buffer.alloc(REGISTRY_PART_BYTES);
    for (let job = jobs[next++]; job; job = jobs[next++]) {
      const length = partLength(job.file.size, job.part);
      const handle = await open(job.file.path);
      try {
        await handle.read(buffer, 0, length, (job.part - 1) * REGISTRY_PART_BYTES);
      } finally {
        await handle.close();
      }
      const form = new FormData();
      form.set("part", new Blob([buffer.subarray(0, length)]));
      try {
        await call(`/admin/registry-uploads/${uploadId}/files/${job.fileId}/parts/${job.part}`, {
          method: "PUT",
          body: form,
        });
      } catch (error) {
        if (!(error instanceof LoadError)) throw error;
        refusedAtSending.push(`${job.file.areaCode} ${job.file.kind}: ${error.message}`);
      }
      sentBytes += length;
      const now = performance.now();
      if (now - reported > 10_000) {
        reported = now;
        log(`Sent ${(sentBytes / 1e6).toFixed(0)} MB, ${((now - started) / 1000).toFixed(0)} s`);
      }
    }
  }
  await Promise.all(Array.from({ length: PARTS_IN_FLIGHT }, worker));
  const sendMs = performance.now() - started;
  for (const line of refusedAtSending) log(`Refused: ${line}`);
  log(`Sent ${(sentBytes / 1e6).toFixed(0)} MB in ${(sendMs / 1000).toFixed(1)} s; applying.`);

  upload = await call<RegistryUploadView>(`/admin/registry-uploads/${uploadId}/finish`, json("POST"));
  let lastCount = -1;
  while (upload.status === "applying") {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    upload = await call<RegistryUploadView>(`/admin/registry-uploads/${uploadId}`);
    const done = upload.files.filter((file) => file.status === "applied" || file.status === "refused").length;
    if (done !== lastCount && (done - lastCount >= 25 || done === upload.files.length)) {
      lastCount = done;
      log(`Applied ${done} of ${upload.files.length} files, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  for (const file of upload.files.filter((one) => one.status === "refused")) {
    log(`Refused: ${file.areaCode} ${file.kind}${file.line ? ` line ${file.line}` : ""}: ${file.message}`);
  }
  return { upload, sendMs };
}

/** Registry uploads through their routes, as the tab and `npm run dnc:load` send them (docs/decisions/0083). */
import { expect } from "vitest";
import { partCount, partLength, REGISTRY_PART_BYTES } from "../../../../src/features/do-not-call/registry-upload";
import type { RegistryUploadView } from "../../../../src/features/do-not-call/schemas/registry-upload";
import { callApi, deliverToQueue } from "../../../../tests/worker/helpers";

export const BASE = "/api/admin/registry-uploads";
export const lines = (...records: string[]) => records.map((record) => `${record}\n`).join("");
export const today = () => new Date().toISOString().slice(0, 10);

/** A full list of `count` numbers of `areaCode` (exchange 555 upward), `555,1234567` a line. */
export function fullList(areaCode: number, count: number, first = 5_550_000): string {
  let text = "";
  for (let i = 0; i < count; i++) text += `${areaCode},${first + i}\n`;
  return text;
}

export interface SentFile {
  areaCode: number;
  kind: "full" | "changes";
  text: string;
}

export async function start(cookie: string, files: SentFile[], extra: Record<string, unknown> = {}) {
  return callApi(BASE, {
    cookie,
    json: {
      scope: "national",
      downloadDate: today(),
      san: "SAN12345",
      files: files.map(({ areaCode, kind, text }) => ({
        areaCode,
        kind,
        size: new TextEncoder().encode(text).byteLength,
      })),
      ...extra,
    },
  });
}

export function sendPart(cookie: string, uploadId: number, fileId: number, part: number, bytes: Uint8Array) {
  const form = new FormData();
  form.set("part", new Blob([new Uint8Array(bytes)]));
  return callApi(`${BASE}/${uploadId}/files/${fileId}/parts/${part}`, { method: "PUT", cookie, body: form });
}

/** The bytes of part `part` of `text`. */
export function partOf(text: string, part: number): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const from = (part - 1) * REGISTRY_PART_BYTES;
  return bytes.subarray(from, from + partLength(bytes.byteLength, part));
}

export async function status(cookie: string, uploadId: number): Promise<RegistryUploadView> {
  const response = await callApi(`${BASE}/${uploadId}`, { cookie });
  expect(response.status).toBe(200);
  return response.json();
}

/** Starts, sends every part of every file, finishes and delivers the Queue's messages; answers the status. */
export async function uploadRegistry(cookie: string, files: SentFile[], extra: Record<string, unknown> = {}) {
  const started = await start(cookie, files, extra);
  expect(started.status, await started.clone().text()).toBe(201);
  const upload = await started.json<RegistryUploadView>();
  const refusals: string[] = [];
  for (const file of upload.files) {
    const sent = files.find((one) => one.areaCode === file.areaCode && one.kind === file.kind) as SentFile;
    for (let part = 1; part <= partCount(file.size); part++) {
      const response = await sendPart(cookie, upload.id, file.id, part, partOf(sent.text, part));
      if (response.status !== 200) refusals.push((await response.json<{ message: string }>()).message);
    }
  }
  const finished = await finish(cookie, upload.id);
  return { upload: finished, refusals };
}

export async function finish(cookie: string, uploadId: number): Promise<RegistryUploadView> {
  const response = await callApi(`${BASE}/${uploadId}/finish`, { method: "POST", cookie });
  expect(response.status, await response.clone().text()).toBe(200);
  const upload = await response.json<RegistryUploadView>();
  const areaCodes = [...new Set(upload.files.filter((f) => f.status === "received").map((f) => f.areaCode))];
  await deliverToQueue(areaCodes.map((areaCode) => ({ kind: "registry-apply", uploadId, areaCode })));
  return status(cookie, uploadId);
}

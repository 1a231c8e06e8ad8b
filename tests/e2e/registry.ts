/**
 * A registry change in the browser tests, sent as an admin sends it (docs/decisions/0083): through the
 * server's registry-upload API (start, one part a file, finish), applied by the server's own Queue consumer.
 * The swap then happens in the server's isolate, whose registry cache learns the new version at once, as it
 * would on the Worker that applied it.
 */
import type { APIRequestContext } from "@playwright/test";
import { expect } from "./fixtures";

interface UploadStatus {
  id: number;
  status: string;
  files: { id: number; areaCode: number; kind: "full" | "changes"; status: string; message: string | null }[];
}

/**
 * Uploads one national change list for `areaCode` (`AAA,NNNNNNN,YYYY-MM-DD,A|D` lines, after a full list of
 * `fullList` when given) as the admin whose `request` this is, and waits until the server applied it.
 */
export async function uploadNationalChanges(
  request: APIRequestContext,
  areaCode: number,
  changes: string,
  fullList?: string,
): Promise<void> {
  const today = new Date().toISOString().slice(0, 10);
  const files = [
    ...(fullList === undefined ? [] : [{ areaCode, kind: "full" as const, body: fullList }]),
    { areaCode, kind: "changes" as const, body: changes },
  ];
  const started = await request.post("/api/admin/registry-uploads", {
    data: {
      scope: "national",
      downloadDate: today,
      san: "E2E-SAN-REVOCATION",
      files: files.map(({ areaCode, kind, body }) => ({ areaCode, kind, size: Buffer.byteLength(body) })),
    },
  });
  expect(started.status(), await started.text()).toBe(201);
  const upload = (await started.json()) as UploadStatus;
  for (const { kind, body } of files) {
    const file = upload.files.find((one) => one.kind === kind);
    const sent = await request.put(`/api/admin/registry-uploads/${upload.id}/files/${file?.id}/parts/1`, {
      multipart: { part: { name: `${areaCode}.txt`, mimeType: "text/plain", buffer: Buffer.from(body) } },
    });
    expect(sent.status(), await sent.text()).toBe(200);
  }
  const finished = await request.post(`/api/admin/registry-uploads/${upload.id}/finish`);
  expect(finished.status(), await finished.text()).toBe(200);
  await expect
    .poll(
      async () => {
        const status = (await (await request.get(`/api/admin/registry-uploads/${upload.id}`)).json()) as UploadStatus;
        return status.files
          .map((file) => `${file.kind} ${file.status}${file.message ? `: ${file.message}` : ""}`)
          .sort();
      },
      { timeout: 60_000, intervals: [500, 1_000] },
    )
    .toEqual(files.map(({ kind }) => `${kind} applied`).sort());
}

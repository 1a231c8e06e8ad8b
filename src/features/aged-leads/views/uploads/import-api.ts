/** The bulk upload's calls to the server: a batch (sent again on a passing failure) and the import's status. */
import { type Answer, ApiError, api, call } from "../../../../lib/api";

/** How often the import's status is read while it runs. */
export const POLL_MS = 1000;
/** A batch that fails for a reason other than its content is sent again (the server ignores repeats). */
const UPLOAD_ATTEMPTS = 3;

/** GET /api/imports/:id: an import's counts and, once done, its report. */
export type ImportStatus = Answer<(typeof api.imports)[":id"]["$get"]>;
type BatchBody = Parameters<(typeof api)["bulk-upload-aged-leads"]["$post"]>[0]["json"];

export const importStatus = (importId: string) =>
  call(api.imports[":id"].$get({ param: { id: encodeURIComponent(importId) } }));

export async function uploadBatch(body: BatchBody) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(api["bulk-upload-aged-leads"].$post({ json: body }));
    } catch (error) {
      const refused = error instanceof ApiError && error.status < 500;
      if (refused || attempt >= UPLOAD_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

export async function waitForImport(
  importId: string,
  onProgress: (status: ImportStatus) => void,
): Promise<ImportStatus> {
  for (;;) {
    const status = await importStatus(importId);
    onProgress(status);
    if (status.done) return status;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

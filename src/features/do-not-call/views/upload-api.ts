/** The calls a suppression list upload makes: the admin's shared lists or a buyer's own (the same steps, two places). */

import { ApiError, api, call } from "../../../lib/api";
import type { SuppressionFileReportInput, SuppressionUploadView } from "../schemas/suppression";
import type { ADMIN_UPLOAD_LIST_KINDS } from "../suppression";
import type { SuppressionFileKind } from "../suppression-file";

/** The list an upload goes to: a new shared list, an existing one, or the buyer's own. */
export type UploadTarget =
  | { scope: "admin"; kind: (typeof ADMIN_UPLOAD_LIST_KINDS)[number]; name: string }
  | { scope: "admin"; listId: number }
  | { scope: "buyer"; name: string };

export interface UploadStart {
  target: UploadTarget;
  contents: SuppressionFileKind;
  refreshedOn: string;
  fileName: string;
  report: SuppressionFileReportInput;
}

/** A batch that fails for a reason other than its content is sent again (the server ignores repeats). */
const ATTEMPTS = 3;
/** Batches faster than a buyer's limit a minute (429) wait and go again, for up to about two minutes. */
const PACED_ATTEMPTS = 8;
const PACED_WAIT_MS = 15_000;
/** How often an upload's status is read while it is applied. */
export const POLL_MS = 1000;

async function retried<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1, paced = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (error instanceof ApiError && error.status === 429 && paced < PACED_ATTEMPTS) {
        paced += 1;
        attempt -= 1;
        await new Promise((resolve) => setTimeout(resolve, PACED_WAIT_MS));
        continue;
      }
      if ((error instanceof ApiError && error.status < 500) || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

export function uploadApi(scope: "admin" | "buyer") {
  const param = (id: number) => ({ param: { id: String(id) } });
  const admin = api.admin["suppression-uploads"];
  const buyer = api["my-suppression-uploads"];
  return {
    start({ target, contents, refreshedOn, fileName, report }: UploadStart) {
      const file = { contents, refreshedOn, fileName, report };
      if (target.scope === "buyer") return call(buyer.$post({ json: { name: target.name, ...file } }));
      return call(
        admin.$post({ json: "listId" in target ? { listId: target.listId, ...file } : { ...target, ...file } }),
      );
    },
    batch(uploadId: number, json: { batchNumber: number; add: number[]; remove: number[] }) {
      return retried(() =>
        call(
          scope === "admin"
            ? admin[":id"].batches.$post({ ...param(uploadId), json })
            : buyer[":id"].batches.$post({ ...param(uploadId), json }),
        ),
      );
    },
    finish(uploadId: number, batches: number): Promise<SuppressionUploadView> {
      const json = { batches };
      return retried(() =>
        call(
          scope === "admin"
            ? admin[":id"].finish.$post({ ...param(uploadId), json })
            : buyer[":id"].finish.$post({ ...param(uploadId), json }),
        ),
      );
    },
    status(uploadId: number): Promise<SuppressionUploadView> {
      return call(scope === "admin" ? admin[":id"].$get(param(uploadId)) : buyer[":id"].$get(param(uploadId)));
    },
  };
}

/**
 * docs/decisions/0083-loading-the-whole-registry.md: an admin's registry upload through its routes. Admins
 * only; files go to R2 in parts (a part sent twice changes nothing, the status says which parts are in so
 * an interrupted upload resumes); nothing is applied before the finish; then each area code is applied
 * from R2 through the Queue; a refused file is reported with its message and line and its area code keeps
 * its list; a national upload applied whole becomes the national list's refreshed-on day.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { REGISTRY_PART_BYTES, REGISTRY_UPLOAD_MESSAGES } from "../../../../src/features/do-not-call/registry-upload";
import type { RegistryUploadView } from "../../../../src/features/do-not-call/schemas/registry-upload";
import { callApi, deliverToQueue, expectAdminOnly, signedIn } from "../../../../tests/worker/helpers";
import { registryUploads, suppressionLists } from "../../../db/schema";
import { createDeps } from "../../../deps";
import { listedOnRegistry, RegistryCache } from "../registry-store";
import {
  BASE,
  finish,
  fullList,
  lines,
  partOf,
  sendPart,
  start,
  status,
  today,
  uploadRegistry,
} from "./registry-upload-fixtures";

const listed = async (keys: number[], scope = "national") =>
  [...(await listedOnRegistry(createDeps(env), keys, new RegistryCache(), scope as "national"))].sort();
const admin = () => signedIn({ isAdmin: true });

describe("registry uploads", () => {
  it("only admins may list, start, read, send parts to and finish an upload", async () => {
    await expectAdminOnly(BASE);
    await expectAdminOnly(BASE, { json: { scope: "national" } });
    await expectAdminOnly(`${BASE}/1`);
    await expectAdminOnly(`${BASE}/1/files/1/parts/1`, { method: "PUT", body: new FormData() });
    await expectAdminOnly(`${BASE}/1/finish`, { method: "POST" });
  });

  it("refuses a start without the SAN (national), with a future day, an empty file or a file twice", async () => {
    const { cookie } = await admin();
    const file = { areaCode: 601, kind: "full" as const, text: lines("601,5550100") };
    const cases: [Record<string, unknown>, string][] = [
      [{ san: undefined }, REGISTRY_UPLOAD_MESSAGES.san],
      [{ downloadDate: "2999-01-01" }, REGISTRY_UPLOAD_MESSAGES.downloadDate],
      [{ scope: "ZZ" }, REGISTRY_UPLOAD_MESSAGES.scope],
      [{ files: [{ areaCode: 601, kind: "full", size: 0 }] }, REGISTRY_UPLOAD_MESSAGES.fileSize],
      [{ files: [] }, REGISTRY_UPLOAD_MESSAGES.noFiles],
      [
        {
          files: [
            { areaCode: 601, kind: "full", size: 12 },
            { areaCode: 601, kind: "full", size: 12 },
          ],
        },
        REGISTRY_UPLOAD_MESSAGES.twice(601, "full"),
      ],
    ];
    for (const [extra, message] of cases) {
      const response = await start(cookie, [file], extra);
      expect(response.status, JSON.stringify(extra)).toBe(400);
      expect((await response.json<{ message: string }>()).message).toBe(message);
    }
    // A state's list needs no SAN.
    expect((await start(cookie, [file], { scope: "TX", san: undefined })).status).toBe(201);
  });

  it("applies full lists then change lists area code by area code only after the finish, and dates the national list", async () => {
    const { cookie } = await admin();
    const files = [
      { areaCode: 602, kind: "full" as const, text: lines("602,5550100", "602,5550101", "602,5550102") },
      { areaCode: 602, kind: "changes" as const, text: lines("602,5550100,2026-11-20,D", "602,5550199,2026-11-21,A") },
      { areaCode: 603, kind: "full" as const, text: lines("603,5550100") },
    ];
    const started = await (await start(cookie, files, { downloadDate: "2026-11-20" })).json<RegistryUploadView>();
    for (const file of started.files) {
      const sent = files.find((one) => one.areaCode === file.areaCode && one.kind === file.kind);
      expect((await sendPart(cookie, started.id, file.id, 1, partOf(sent?.text ?? "", 1))).status).toBe(200);
    }
    // Every file is in R2, none applied: the registry does not list them yet.
    expect((await status(cookie, started.id)).files.map((file) => file.status)).toEqual([
      "received",
      "received",
      "received",
    ]);
    expect(await listed([6025550100, 6035550100])).toEqual([]);
    const done = await finish(cookie, started.id);
    expect(done.status).toBe("applied");
    expect(done.files.map(({ areaCode, kind, status, numbers }) => ({ areaCode, kind, status, numbers }))).toEqual([
      { areaCode: 602, kind: "changes", status: "applied", numbers: 3 },
      { areaCode: 602, kind: "full", status: "applied", numbers: 3 },
      { areaCode: 603, kind: "full", status: "applied", numbers: 1 },
    ]);
    expect(await listed([6025550100, 6025550101, 6025550102, 6025550199, 6035550100])).toEqual([
      6025550101, 6025550102, 6025550199, 6035550100,
    ]);
    const [national] = await createDeps(env)
      .db.select()
      .from(suppressionLists)
      .where(eq(suppressionLists.kind, "national_dnc"));
    expect(national?.refreshedOn).toBe("2026-11-20");
    const [row] = await createDeps(env).db.select().from(registryUploads).where(eq(registryUploads.id, started.id));
    expect(row).toMatchObject({ san: "SAN12345", downloadDate: "2026-11-20", status: "applied" });
    // The files as sent are not kept once applied.
    expect((await env.DOCUMENTS.list({ prefix: `registry-uploads/${started.id}/` })).objects).toEqual([]);
  });

  it("a state's upload dates that state's list", async () => {
    const { cookie } = await admin();
    const { upload } = await uploadRegistry(cookie, [{ areaCode: 604, kind: "full", text: lines("604,5550100") }], {
      scope: "TX",
      san: undefined,
    });
    expect(upload.status).toBe("applied");
    expect(await listed([6045550100], "TX")).toEqual([6045550100]);
    expect(await listed([6045550100])).toEqual([]);
    const lists = await createDeps(env).db.select().from(suppressionLists).where(eq(suppressionLists.state, "TX"));
    expect(lists.map((list) => [list.kind, list.refreshedOn])).toEqual([["state_dnc", today()]]);
  });

  it("a part sent twice changes nothing, and an interrupted upload resumes from the parts its status lists", async () => {
    const { cookie } = await admin();
    // 700,000 lines of 12 bytes: two parts, the first 8 MiB.
    const text = fullList(605, 700_000, 2_000_000);
    const files = [{ areaCode: 605, kind: "full" as const, text }];
    const replaced = await (await start(cookie, files)).json<RegistryUploadView>();
    const upload = await (await start(cookie, files)).json<RegistryUploadView>();
    const uploadId = upload.id;
    const fileId = upload.files[0]?.id ?? 0;
    expect(upload.files[0]?.parts).toBe(2);
    // The first upload of the same copy was replaced by the second: it takes no more parts.
    const late = await sendPart(cookie, replaced.id, replaced.files[0]?.id ?? 0, 2, partOf(text, 2));
    expect(late.status).toBe(409);

    const second = await sendPart(cookie, uploadId, fileId, 2, partOf(text, 2));
    expect(second.status).toBe(200);
    const again = await sendPart(cookie, uploadId, fileId, 2, partOf(text, 2));
    expect(await again.json()).toMatchObject({ partsReceived: [2], status: "receiving" });
    // Stopped here (tab closed, server killed): finishing is refused, the status says what is missing.
    const early = await callApi(`${BASE}/${uploadId}/finish`, { method: "POST", cookie });
    expect(early.status).toBe(400);
    expect((await early.json<{ message: string }>()).message).toBe(
      REGISTRY_UPLOAD_MESSAGES.missing(1, "605 full: 1 of 2 parts"),
    );
    expect((await status(cookie, uploadId)).files[0]?.partsReceived).toEqual([2]);
    // A part of the wrong length (cut off in transit) is refused and not kept.
    const short = await sendPart(cookie, uploadId, fileId, 1, partOf(text, 1).subarray(0, REGISTRY_PART_BYTES - 1));
    expect(short.status).toBe(400);
    expect((await short.json<{ message: string }>()).message).toBe(
      REGISTRY_UPLOAD_MESSAGES.partLength(1, REGISTRY_PART_BYTES, REGISTRY_PART_BYTES - 1),
    );
    const first = await sendPart(cookie, uploadId, fileId, 1, partOf(text, 1));
    expect(await first.json()).toMatchObject({ partsReceived: [1, 2], status: "received" });
    const done = await finish(cookie, uploadId);
    expect(done.files[0]).toMatchObject({ status: "applied", numbers: 700_000 });
    expect(await listed([6052000000, 6052699999, 6052700000])).toEqual([6052000000, 6052699999]);
  }, 60_000);

  it("refuses a wrong format, another area code, a cut-off file and a bad line, each with its message, and keeps their area codes' lists", async () => {
    const { cookie } = await admin();
    await uploadRegistry(cookie, [
      { areaCode: 606, kind: "full", text: lines("606,5550100") },
      { areaCode: 607, kind: "full", text: lines("607,5550100") },
      { areaCode: 608, kind: "full", text: lines("608,5550100") },
      { areaCode: 609, kind: "full", text: lines("609,5550100") },
    ]);
    const { upload, refusals } = await uploadRegistry(cookie, [
      { areaCode: 606, kind: "full", text: lines("606,5550200,2026-11-27,A") },
      { areaCode: 607, kind: "full", text: lines("212,5550200") },
      { areaCode: 608, kind: "full", text: "608,5550200\n608,555" },
      { areaCode: 609, kind: "full", text: lines("609,5550200", "609,5550201", "609-555-0202") },
      { areaCode: 609, kind: "changes", text: lines("609,5550300,2026-11-27,A") },
      { areaCode: 610, kind: "full", text: lines("610,5550200") },
    ]);
    expect(refusals).toEqual([
      'Line 1 is not an area code and a 7-digit number (555,1234567): "606,5550200,2026-11-27,A".',
      "Line 1: 2125550200 is not in area code 607, the file's area code.",
      "The file does not end with a newline: it looks cut off (truncated).",
    ]);
    expect(upload.status).toBe("partly_applied");
    expect(upload.files.map(({ areaCode, kind, status, line }) => [areaCode, kind, status, line])).toEqual([
      [606, "full", "refused", 1],
      [607, "full", "refused", 1],
      [608, "full", "refused", null],
      [609, "changes", "refused", null],
      [609, "full", "refused", 3],
      [610, "full", "applied", null],
    ]);
    expect(upload.files.find((file) => file.areaCode === 609 && file.kind === "changes")?.message).toBe(
      REGISTRY_UPLOAD_MESSAGES.fullRefused,
    );
    // Their area codes keep the lists they had; the good file was applied.
    expect(await listed([6065550100, 6065550200, 6075550100, 6085550100, 6095550100, 6095550200, 6105550200])).toEqual([
      6065550100, 6075550100, 6085550100, 6095550100, 6105550200,
    ]);
  });

  it("a message delivered again applies nothing twice", async () => {
    const { cookie } = await admin();
    const { upload } = await uploadRegistry(cookie, [
      { areaCode: 611, kind: "full", text: lines("611,5550100", "611,5550101") },
      { areaCode: 611, kind: "changes", text: lines("611,5550100,2026-11-27,D") },
    ]);
    await deliverToQueue([{ kind: "registry-apply", uploadId: upload.id, areaCode: 611 }]);
    // The change list (listed first) left one number; the full list had brought two.
    expect((await status(cookie, upload.id)).files.map((file) => [file.kind, file.numbers])).toEqual([
      ["changes", 1],
      ["full", 2],
    ]);
    expect(await listed([6115550100, 6115550101])).toEqual([6115550101]);
  });

  it("a file that cannot be applied on any delivery is refused with the reason once the Queue gives up, and the upload settles", async () => {
    const { cookie } = await admin();
    const files = [{ areaCode: 612, kind: "changes" as const, text: lines("612,5550100,2026-11-27,A") }];
    const started = await (await start(cookie, files)).json<RegistryUploadView>();
    const file = started.files[0];
    expect((await sendPart(cookie, started.id, file?.id ?? 0, 1, partOf(files[0]?.text ?? "", 1))).status).toBe(200);
    const finished = await callApi(`${BASE}/${started.id}/finish`, { method: "POST", cookie });
    expect(finished.status).toBe(200);
    const message = { kind: "registry-apply", uploadId: started.id, areaCode: 612 };
    // No full list for 612 yet: the first delivery fails and is retried.
    const first = await deliverToQueue([message]);
    expect(first.retryMessages).toHaveLength(1);
    expect((await status(cookie, started.id)).status).toBe("applying");
    // The last delivery: refused with the reason, and the upload is settled.
    await deliverToQueue([message], { attempts: 6 });
    const settled = await status(cookie, started.id);
    expect(settled.status).toBe("partly_applied");
    expect(settled.files[0]?.message).toBe(
      "Could not be applied: Area code 612 has no full list yet: store one before a change list.",
    );
    expect(await listed([6125550100])).toEqual([]);
  });
});

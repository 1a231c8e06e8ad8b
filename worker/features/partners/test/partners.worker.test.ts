import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { testDb } from "../../../../tests/worker/factories";
import { callApi, expectAdminOnly, signedIn } from "../../../../tests/worker/helpers";
import { partnerApplications, partnerDocuments } from "../../../db/schema";

const bytesOf = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === "string" ? [...part].map((c) => c.charCodeAt(0)) : part)));
const PDF = bytesOf("%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
const PNG = bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], "IHDR", [0, 0, 0, 1, 0, 0, 0, 1]);
const DOCX = bytesOf([0x50, 0x4b, 0x03, 0x04], "....[Content_Types].xml....word/document.xml....");
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const wide = (text: string) => [...text].flatMap((c) => [c.charCodeAt(0), 0]);
const DOC = bytesOf(OLE, "........", wide("WordDocument"));

const FIELDS: Record<string, string> = {
  businessName: "Best Call Center",
  businessAddress: "1 Main St",
  city: "Austin",
  state: "TX",
  zip: "73301",
  ein: "123456789",
  mainContact: "Pat Partner",
  contactPhone: "5551234567",
  contactEmail: "pat@example.com",
  paymentTerms: "Net 30",
  numberOfAgents: "12",
  officeHours: "9-5",
  timeZone: "EST",
  payPerTransfer: "$20",
  didNumber: "5550001111",
  dailyCallCap: "40",
  reference1CompanyName: "Ref Co",
  reference1ContactName: "Ray",
  reference1Phone: "5552223333",
};

function application(
  overrides: Record<string, string | null> = {},
  files: { name: string; bytes: Uint8Array<ArrayBuffer>; type?: string }[] = [],
) {
  const form = new FormData();
  for (const [key, value] of Object.entries({ ...FIELDS, ...overrides })) if (value !== null) form.set(key, value);
  for (const file of files) form.append("documents", new File([file.bytes], file.name, { type: file.type ?? "" }));
  return form;
}

const submit = (form: FormData, headers: Record<string, string> = {}) =>
  callApi("/api/affnetwork-signup", { method: "POST", body: form, headers });

async function listAsAdmin() {
  const { cookie } = await signedIn({ isAdmin: true });
  return {
    cookie,
    list: await (await callApi("/api/affnetwork-signups", { cookie })).json<Record<string, unknown>[]>(),
  };
}

describe("POST /api/affnetwork-signup", () => {
  it("stores the application and its documents (R2 under random keys, details in D1)", async () => {
    const response = await submit(
      application({ businessName: "Docs Inc" }, [
        { name: "license.pdf", bytes: PDF },
        { name: "photo.png", bytes: PNG },
      ]),
    );
    expect(response.status).toBe(201);
    const { id } = await response.json<{ id: string }>();
    const { list } = await listAsAdmin();
    const stored = list.find((row) => row.id === id);
    expect(stored).toMatchObject({
      businessName: "Docs Inc",
      status: "pending",
      numberOfAgents: 12,
      dailyCallCap: 40,
      paymentTerms: "Net 30",
    });
    const documents = stored?.documents as { id: string; originalName: string; size: number; contentType: string }[];
    expect(documents.map((d) => [d.originalName, d.size, d.contentType])).toEqual([
      ["license.pdf", PDF.length, "application/pdf"],
      ["photo.png", PNG.length, "image/png"],
    ]);
    const keys = await testDb()
      .select({ storageKey: partnerDocuments.storageKey })
      .from(partnerDocuments)
      .where(eq(partnerDocuments.applicationId, id));
    for (const { storageKey } of keys) {
      expect(storageKey).not.toContain("license");
      expect(await env.DOCUMENTS.head(storageKey)).not.toBeNull();
    }
  });

  it("accepts an application without documents or references", async () => {
    const response = await submit(
      application({ reference1CompanyName: null, reference1ContactName: null, reference1Phone: null }),
    );
    expect(response.status).toBe(201);
  });

  it.each([
    ["businessName", "", "Business name is required"],
    ["state", "T", "State is required"],
    ["zip", "123", "ZIP code is required"],
    ["ein", "12345", "EIN is required"],
    ["contactPhone", "555", "Phone number must be at least 10 digits"],
    ["contactEmail", "nope", "Please enter a valid email address"],
    ["paymentTerms", "Net 60", "Please choose payment terms"],
    ["timeZone", "UTC", "Please choose a time zone"],
    ["numberOfAgents", "0", "Number of agents is required"],
    ["dailyCallCap", "lots", "Daily call cap is required"],
    ["didNumber", "", "DID number is required"],
  ])("refuses %s = %j with '%s'", async (field, value, message) => {
    const response = await submit(application({ [field]: value }));
    expect(response.status).toBe(400);
    expect((await response.json<{ errors: Record<string, string> }>()).errors[field]).toBe(message);
  });

  it("checks documents by their bytes and stores nothing when one is refused", async () => {
    const before = await testDb().$count(partnerApplications);
    const fake = await submit(
      application({}, [
        { name: "ok.pdf", bytes: PDF },
        { name: "evil.pdf", bytes: new TextEncoder().encode("MZ not a pdf"), type: "application/pdf" },
      ]),
    );
    expect(fake.status).toBe(400);
    expect(await fake.json()).toMatchObject({
      message: "Invalid File Type: evil.pdf is not a PDF, Word document or image.",
    });

    const tooMany = await submit(
      application(
        {},
        Array.from({ length: 6 }, (_, i) => ({ name: `d${i}.pdf`, bytes: PDF })),
      ),
    );
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toMatchObject({ message: "Too Many Files: You can upload a maximum of 5 documents." });

    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(PDF);
    const tooLarge = await submit(application({}, [{ name: "big.pdf", bytes: big }]));
    expect(tooLarge.status).toBe(400);
    expect(await tooLarge.json()).toMatchObject({ message: "File Too Large: big.pdf is larger than 10 MB." });

    expect(await testDb().$count(partnerApplications)).toBe(before);
  });

  it.each([
    ["scan.bmp", bytesOf("BM", [0x3a, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0])],
    ["scan.tiff", bytesOf([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0])],
    ["header-only.pdf", bytesOf("%PDF-1.7\n<< no end marker >>")],
    ["sheet.xls.doc", bytesOf(OLE, "........", wide("Workbook"))],
    ["archive.docx", bytesOf([0x50, 0x4b, 0x03, 0x04], "....payload.exe....")],
    ["truncated.png", bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ])("refuses %s, whose bytes are not a full PDF, Word or accepted image signature", async (name, bytes) => {
    const response = await submit(application({}, [{ name, bytes }]));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      message: `Invalid File Type: ${name} is not a PDF, Word document or image.`,
    });
  });

  it("refuses a body that is not a multipart form", async () => {
    const response = await callApi("/api/affnetwork-signup", { json: FIELDS });
    expect(response.status).toBe(400);
  });

  it("limits applications to 10 a minute per address", async () => {
    const headers = { "CF-Connecting-IP": "198.51.100.77" };
    for (let i = 0; i < 10; i++) expect((await submit(application(), headers)).status).toBe(201);
    expect((await submit(application(), headers)).status).toBe(429);
  });
});

describe("admin review", () => {
  it("GET /api/affnetwork-signups is for admins only", () => expectAdminOnly("/api/affnetwork-signups"));

  it("PATCH status is for admins only", async () => {
    const { id } = await (await submit(application())).json<{ id: string }>();
    await expectAdminOnly(`/api/affnetwork-signups/${id}/status`, { method: "PATCH", json: { status: "approved" } });
  });

  it("approves a pending application once and records the date; anything else is 409", async () => {
    const { id } = await (await submit(application())).json<{ id: string }>();
    const { cookie } = await signedIn({ isAdmin: true });
    const approve = await callApi(`/api/affnetwork-signups/${id}/status`, {
      method: "PATCH",
      json: { status: "approved" },
      cookie,
    });
    expect(approve.status).toBe(200);
    expect(await approve.json()).toMatchObject({ message: "Application status updated successfully" });
    const { list } = await listAsAdmin();
    expect(list.find((row) => row.id === id)).toMatchObject({ status: "approved", approvedAt: expect.any(String) });
    const again = await callApi(`/api/affnetwork-signups/${id}/status`, {
      method: "PATCH",
      json: { status: "rejected" },
      cookie,
    });
    expect(again.status).toBe(409);
  });

  it("rejects, refuses unknown statuses and answers 404 for unknown applications", async () => {
    const { id } = await (await submit(application())).json<{ id: string }>();
    const { cookie } = await signedIn({ isAdmin: true });
    const bad = await callApi(`/api/affnetwork-signups/${id}/status`, {
      method: "PATCH",
      json: { status: "pending" },
      cookie,
    });
    expect(bad.status).toBe(400);
    expect(
      (await callApi(`/api/affnetwork-signups/${id}/status`, { method: "PATCH", json: { status: "rejected" }, cookie }))
        .status,
    ).toBe(200);
    expect(
      (await callApi("/api/affnetwork-signups/nope/status", { method: "PATCH", json: { status: "rejected" }, cookie }))
        .status,
    ).toBe(404);
  });
});

describe("GET /api/download-document/:id", () => {
  it("is for admins only", () => expectAdminOnly("/api/download-document/anything"));

  it("streams the document as an attachment named from the application and detected type; 404 for unknown ids", async () => {
    const { id } = await (
      await submit(
        application({ businessName: "Acme Insurance, Inc." }, [
          { name: "Licence «A».pdf", bytes: PDF },
          { name: "contract.pdf", bytes: DOCX, type: "application/pdf" },
          { name: "old.doc", bytes: DOC },
        ]),
      )
    ).json<{ id: string }>();
    const { cookie, list } = await listAsAdmin();
    const docs = (list.find((row) => row.id === id)?.documents ?? []) as {
      id: string;
      filename: string;
      originalName: string;
    }[];
    // The admin list shows the uploader's names; downloads never use them.
    expect(docs.map((doc) => [doc.originalName, doc.filename])).toEqual([
      ["Licence «A».pdf", "acme-insurance-inc-document-1.pdf"],
      ["contract.pdf", "acme-insurance-inc-document-2.docx"],
      ["old.doc", "acme-insurance-inc-document-3.doc"],
    ]);
    const expected = [
      ["application/pdf", "acme-insurance-inc-document-1.pdf", PDF],
      [
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "acme-insurance-inc-document-2.docx",
        DOCX,
      ],
      ["application/msword", "acme-insurance-inc-document-3.doc", DOC],
    ] as const;
    for (const [index, [contentType, fileName, bytes]] of expected.entries()) {
      const response = await callApi(`/api/download-document/${docs[index]?.id}`, { cookie });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(contentType);
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${fileName}"`);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    }
    const unknown = await callApi("/api/download-document/no-such-doc", { cookie });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "Document not found" });
  });
});

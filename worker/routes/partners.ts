/** Partner applications (spec §7; PRODUCT.md D9, D11): anonymous submission with documents, admin review. */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import {
  applicationStatusSchema,
  DOCUMENT_ERRORS,
  DOCUMENT_TYPES,
  documentFileName,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENTS,
  type PartnerApplicationView,
  partnerApplicationSchema,
  sniffDocument,
} from "../../src/domain/schemas/partner";
import type { AppBindings } from "../env";
import { NotFoundError } from "../errors";
import { errorJson } from "../http";
import { requireAdmin } from "../middleware/auth";
import { rateLimitOutcomes } from "../middleware/rate-limit";
import { siteOrigin } from "../services/mail";
import { decideApplication } from "../services/partner-accounts";
import { documentForDownload } from "../services/partner-documents";
import { validateJson } from "../validation";

/** Five documents of 10 MB plus the form's text. */
export const MAX_APPLICATION_BYTES = MAX_DOCUMENTS * MAX_DOCUMENT_BYTES + 1024 * 1024;

const COLUMNS: Record<string, string> = {
  businessName: "business_name",
  businessAddress: "business_address",
  city: "city",
  state: "state",
  zip: "zip",
  ein: "ein",
  mainContact: "main_contact",
  contactPhone: "contact_phone",
  contactEmail: "contact_email",
  paymentTerms: "payment_terms",
  numberOfAgents: "number_of_agents",
  officeHours: "office_hours",
  timeZone: "time_zone",
  payPerTransfer: "pay_per_transfer",
  didNumber: "did_number",
  dailyCallCap: "daily_call_cap",
  reference1CompanyName: "reference1_company_name",
  reference1ContactName: "reference1_contact_name",
  reference1Phone: "reference1_phone",
  reference2CompanyName: "reference2_company_name",
  reference2ContactName: "reference2_contact_name",
  reference2Phone: "reference2_phone",
};

interface StagedDocument {
  id: string;
  key: string;
  name: string;
  contentType: string;
  bytes: ArrayBuffer;
}

function documentError(title: string, message: string) {
  return { message: `${title}: ${message}`, title };
}

export const partners = new Hono<AppBindings>()
  .post(
    "/affnetwork-signup",
    bodyLimit({
      maxSize: MAX_APPLICATION_BYTES,
      onError: (c) => c.json(documentError(DOCUMENT_ERRORS.tooLarge.title, "The upload is larger than 50 MB."), 413),
    }),
    rateLimitOutcomes("partner-application", (status) => status === 201),
    async (c) => {
      let form: FormData;
      try {
        form = await c.req.formData();
      } catch {
        return errorJson(c, 400, "Send the application as a multipart form.");
      }
      const fields = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));
      const parsed = partnerApplicationSchema.safeParse(fields);
      if (!parsed.success) {
        const errors: Record<string, string> = {};
        for (const issue of parsed.error.issues) errors[issue.path.join(".")] ??= issue.message;
        return c.json({ message: parsed.error.issues[0]?.message ?? "Invalid application", errors }, 400);
      }

      const files = form
        .getAll("documents")
        .filter((value): value is File => typeof value !== "string" && value.size > 0);
      if (files.length > MAX_DOCUMENTS)
        return c.json(documentError(DOCUMENT_ERRORS.tooMany.title, DOCUMENT_ERRORS.tooMany.message()), 400);
      const staged: StagedDocument[] = [];
      for (const file of files) {
        const name = file.name.slice(0, 200) || "document";
        if (file.size > MAX_DOCUMENT_BYTES) {
          return c.json(documentError(DOCUMENT_ERRORS.tooLarge.title, DOCUMENT_ERRORS.tooLarge.message(name)), 400);
        }
        const bytes = await file.arrayBuffer();
        const sniffed = sniffDocument(new Uint8Array(bytes));
        if (!sniffed)
          return c.json(
            documentError(DOCUMENT_ERRORS.invalidType.title, DOCUMENT_ERRORS.invalidType.message(name)),
            400,
          );
        const id = crypto.randomUUID();
        staged.push({
          id,
          key: `partner-documents/${id}`,
          name,
          contentType: DOCUMENT_TYPES[sniffed].contentType,
          bytes,
        });
      }

      const applicationId = crypto.randomUUID();
      const values = parsed.data as Record<string, string | number | undefined>;
      const columns = Object.keys(COLUMNS);
      try {
        await Promise.all(
          staged.map((doc) =>
            c.env.DOCUMENTS.put(doc.key, doc.bytes, { httpMetadata: { contentType: doc.contentType } }),
          ),
        );
        await c.env.DB.batch([
          c.env.DB.prepare(
            `INSERT INTO partner_applications (id, ${columns.map((key) => COLUMNS[key]).join(", ")})
             VALUES (?, ${columns.map(() => "?").join(", ")})`,
          ).bind(applicationId, ...columns.map((key) => values[key] ?? null)),
          ...staged.map((doc) =>
            c.env.DB.prepare(
              "INSERT INTO partner_documents (id, application_id, storage_key, original_name, content_type, size) VALUES (?, ?, ?, ?, ?, ?)",
            ).bind(doc.id, applicationId, doc.key, doc.name, doc.contentType, doc.bytes.byteLength),
          ),
        ]);
      } catch (error) {
        // Nothing half-stored: drop uploaded files when the record could not be written.
        await Promise.allSettled(staged.map((doc) => c.env.DOCUMENTS.delete(doc.key)));
        throw error;
      }
      return c.json({ message: "Application submitted", id: applicationId }, 201);
    },
  )
  .use("/affnetwork-signups", requireAdmin)
  .use("/affnetwork-signups/*", requireAdmin)
  .use("/download-document/*", requireAdmin)
  .get("/affnetwork-signups", async (c) => {
    const [applications, documents] = await c.env.DB.batch<Record<string, unknown>>([
      c.env.DB.prepare("SELECT * FROM partner_applications ORDER BY created_at DESC"),
      c.env.DB.prepare(
        "SELECT id, application_id, original_name, content_type, size, uploaded_at FROM partner_documents ORDER BY uploaded_at, rowid",
      ),
    ]);
    const businessNames = new Map(
      (applications?.results ?? []).map((row) => [String(row.id), String(row.business_name)] as const),
    );
    const byApplication = new Map<string, PartnerApplicationView["documents"]>();
    for (const doc of documents?.results ?? []) {
      const list = byApplication.get(String(doc.application_id)) ?? [];
      const businessName = businessNames.get(String(doc.application_id)) ?? "";
      list.push({
        id: String(doc.id),
        filename: documentFileName(businessName, list.length + 1, String(doc.content_type)),
        originalName: String(doc.original_name),
        size: Number(doc.size),
        contentType: String(doc.content_type),
        uploadDate: new Date(Number(doc.uploaded_at)).toISOString(),
      });
      byApplication.set(String(doc.application_id), list);
    }
    return c.json(
      (applications?.results ?? []).map((row) => {
        const view: Record<string, unknown> = {
          id: row.id,
          status: row.status,
          approvedAt: row.approved_at === null ? null : new Date(Number(row.approved_at)).toISOString(),
          createdAt: new Date(Number(row.created_at)).toISOString(),
          documents: byApplication.get(String(row.id)) ?? [],
        };
        for (const [field, column] of Object.entries(COLUMNS)) view[field] = row[column];
        return view;
      }),
    );
  })
  .patch("/affnetwork-signups/:id/status", validateJson(applicationStatusSchema), async (c) => {
    const { status } = c.req.valid("json");
    const origin = siteOrigin(c.env, c.req.url);
    await decideApplication(c.env, c.req.param("id"), status, c.get("user")?.id ?? null, origin);
    return c.json({ message: "Application status updated successfully", status });
  })
  .get("/download-document/:id", async (c) => {
    const doc = await documentForDownload(c.env.DB, c.req.param("id"));
    const object = await c.env.DOCUMENTS.get(doc.storageKey);
    if (!object) throw new NotFoundError("Document not found");
    return new Response(object.body, {
      headers: {
        "Content-Type": doc.contentType,
        "Content-Length": String(object.size),
        "Content-Disposition": `attachment; filename="${doc.fileName}"`,
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, no-store",
      },
    });
  });

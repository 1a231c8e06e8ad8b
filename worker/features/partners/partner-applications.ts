/**
 * Partner applications (product rules 16, 33, 34): an anonymous application with up to
 * MAX_DOCUMENTS documents staged in R2, the admin's list of applications, and document downloads.
 */
import { asc, desc, eq, sql } from "drizzle-orm";
import {
  DOCUMENT_ERRORS,
  DOCUMENT_TYPES,
  documentFileName,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENTS,
  type PartnerApplication,
  type PartnerApplicationView,
  sniffDocument,
} from "../../../src/features/partners/schemas/partner";
import { insertInChunks } from "../../db/bulk-insert";
import { partnerApplications, partnerDocuments, partners, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { InvalidError, NotFoundError } from "../../errors";
import { awaitsPassword } from "../accounts/index";
import { documentForDownload } from "./partner-documents";

/** Five documents of 10 MB plus the form's text. */
export const MAX_APPLICATION_BYTES = MAX_DOCUMENTS * MAX_DOCUMENT_BYTES + 1024 * 1024;

/** The application's own fields, as stored and as the admin tab reads them. */
const APPLICATION_FIELDS = [
  "businessName",
  "businessAddress",
  "city",
  "state",
  "zip",
  "ein",
  "mainContact",
  "contactPhone",
  "contactEmail",
  "paymentTerms",
  "numberOfAgents",
  "officeHours",
  "timeZone",
  "payPerTransfer",
  "didNumber",
  "dailyCallCap",
  "reference1CompanyName",
  "reference1ContactName",
  "reference1Phone",
  "reference2CompanyName",
  "reference2ContactName",
  "reference2Phone",
] as const satisfies readonly (keyof PartnerApplication)[];

/** A refused document's answer: the title the form shows, and the message naming it. */
export function documentProblem(title: string, message: string) {
  return { message: `${title}: ${message}`, title };
}

const refuseDocument = (title: string, message: string) => new InvalidError(`${title}: ${message}`, { title });

interface StagedDocument {
  id: string;
  key: string;
  name: string;
  contentType: string;
  bytes: ArrayBuffer;
}

/** Checks count, size and (by content, not name) type of the uploaded documents. */
async function stageDocuments(files: readonly File[]): Promise<StagedDocument[]> {
  if (files.length > MAX_DOCUMENTS)
    throw refuseDocument(DOCUMENT_ERRORS.tooMany.title, DOCUMENT_ERRORS.tooMany.message());
  const staged: StagedDocument[] = [];
  for (const file of files) {
    const name = file.name.slice(0, 200) || "document";
    if (file.size > MAX_DOCUMENT_BYTES) {
      throw refuseDocument(DOCUMENT_ERRORS.tooLarge.title, DOCUMENT_ERRORS.tooLarge.message(name));
    }
    const bytes = await file.arrayBuffer();
    const sniffed = sniffDocument(new Uint8Array(bytes));
    if (!sniffed) throw refuseDocument(DOCUMENT_ERRORS.invalidType.title, DOCUMENT_ERRORS.invalidType.message(name));
    const id = crypto.randomUUID();
    staged.push({ id, key: `partner-documents/${id}`, name, contentType: DOCUMENT_TYPES[sniffed].contentType, bytes });
  }
  return staged;
}

/**
 * Stores the application and its documents: the files go to R2 first, then the application and its
 * document rows in one D1 batch. Nothing is half-stored: the files are removed when the batch fails.
 */
export async function submitApplication(
  deps: Deps,
  application: PartnerApplication,
  files: readonly File[],
): Promise<{ id: string }> {
  const staged = await stageDocuments(files);
  const id = crypto.randomUUID();
  const { db, env } = deps;
  const fields = Object.fromEntries(APPLICATION_FIELDS.map((field) => [field, application[field] ?? null]));
  try {
    await Promise.all(
      staged.map((doc) => env.DOCUMENTS.put(doc.key, doc.bytes, { httpMetadata: { contentType: doc.contentType } })),
    );
    const insertApplication = db.insert(partnerApplications).values({ ...(fields as PartnerApplication), id });
    const documentRows = staged.map((doc) => ({
      id: doc.id,
      applicationId: id,
      storageKey: doc.key,
      originalName: doc.name,
      contentType: doc.contentType,
      size: doc.bytes.byteLength,
    }));
    if (documentRows.length === 0) await insertApplication;
    else await db.batch([insertApplication, ...insertInChunks(db, partnerDocuments, documentRows)]);
  } catch (error) {
    await Promise.allSettled(staged.map((doc) => env.DOCUMENTS.delete(doc.key)));
    throw error;
  }
  return { id };
}

/** Every application, newest first, with its documents in upload order. */
export async function listApplications(deps: Deps): Promise<PartnerApplicationView[]> {
  const { db } = deps;
  const [applications, documents, accounts] = await db.batch([
    db.select().from(partnerApplications).orderBy(desc(partnerApplications.createdAt)),
    db
      .select({
        id: partnerDocuments.id,
        applicationId: partnerDocuments.applicationId,
        originalName: partnerDocuments.originalName,
        contentType: partnerDocuments.contentType,
        size: partnerDocuments.size,
        uploadedAt: partnerDocuments.uploadedAt,
      })
      .from(partnerDocuments)
      // rowid keeps upload order among documents stored in the same millisecond (drizzle has no name for it).
      .orderBy(asc(partnerDocuments.uploadedAt), sql`rowid`),
    db
      .select({ applicationId: partners.applicationId, passwordHash: users.passwordHash })
      .from(partners)
      .innerJoin(users, eq(users.id, partners.userId)),
  ]);
  const invitationPending = new Set(
    accounts.filter((account) => awaitsPassword(account)).map((account) => account.applicationId),
  );
  const businessNames = new Map(applications.map((row) => [row.id, row.businessName] as const));
  const byApplication = new Map<string, PartnerApplicationView["documents"]>();
  for (const doc of documents) {
    const list = byApplication.get(doc.applicationId) ?? [];
    list.push({
      id: doc.id,
      filename: documentFileName(businessNames.get(doc.applicationId) ?? "", list.length + 1, doc.contentType),
      originalName: doc.originalName,
      size: doc.size,
      contentType: doc.contentType,
      uploadDate: doc.uploadedAt.toISOString(),
    });
    byApplication.set(doc.applicationId, list);
  }
  return applications.map((row) => ({
    ...(Object.fromEntries(APPLICATION_FIELDS.map((field) => [field, row[field]])) as PartnerApplication),
    id: row.id,
    status: row.status,
    approvedAt: row.approvedAt === null ? null : row.approvedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    documents: byApplication.get(row.id) ?? [],
    invitationPending: invitationPending.has(row.id),
  }));
}

/** A stored document with its download name; NotFound when the row or the file is gone. */
export async function openDocument(deps: Deps, documentId: string) {
  const doc = await documentForDownload(deps, documentId);
  const object = await deps.env.DOCUMENTS.get(doc.storageKey);
  if (!object) throw new NotFoundError("Document not found");
  return { ...doc, body: object.body, size: object.size };
}

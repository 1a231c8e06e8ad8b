/** Partner documents for download (product rule 34): named from the application and the detected type. */
import { asc, eq, sql } from "drizzle-orm";
import { documentFileName } from "../../../src/features/partners/schemas/partner";
import { partnerApplications, partnerDocuments } from "../../db/schema";
import type { Deps } from "../../deps";
import { NotFoundError } from "../../errors";

export interface DocumentDownload {
  storageKey: string;
  contentType: string;
  /** e.g. `acme-insurance-document-2.pdf`; the uploader's own name is never sent back as a file name. */
  fileName: string;
}

export async function documentForDownload(deps: Deps, id: string): Promise<DocumentDownload> {
  const orm = deps.db;
  const doc = await orm
    .select({
      applicationId: partnerDocuments.applicationId,
      storageKey: partnerDocuments.storageKey,
      contentType: partnerDocuments.contentType,
      businessName: partnerApplications.businessName,
    })
    .from(partnerDocuments)
    .innerJoin(partnerApplications, eq(partnerApplications.id, partnerDocuments.applicationId))
    .where(eq(partnerDocuments.id, id))
    .get();
  if (!doc) throw new NotFoundError("Document not found");
  const siblings = await orm
    .select({ id: partnerDocuments.id })
    .from(partnerDocuments)
    .where(eq(partnerDocuments.applicationId, doc.applicationId))
    // rowid keeps upload order among documents stored in the same millisecond (drizzle has no name for it).
    .orderBy(asc(partnerDocuments.uploadedAt), sql`rowid`);
  const position = siblings.findIndex((sibling) => sibling.id === id) + 1;
  return {
    storageKey: doc.storageKey,
    contentType: doc.contentType,
    fileName: documentFileName(doc.businessName, position, doc.contentType),
  };
}

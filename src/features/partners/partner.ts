/**
 * The partner application's rules that the form needs without zod (decision 0016): payment terms, time
 * zones and the document limits (product rules 23, 34). The schema is in schemas/partner.ts.
 */
import { megabytes } from "../../domain/units.ts";

/** An approval's invitation link works once, for this long. */
export const INVITATION_TTL_HOURS = 72;
export const INVITATION_INVALID = "This invitation link is invalid or has expired";

export const PAYMENT_TERMS = ["Net 7", "Net 15", "Net 30"] as const;
export type PaymentTerms = (typeof PAYMENT_TERMS)[number];
/** The application's zone names (APPLICATION_TIME_ZONES in time-zones.ts maps them to IANA zones). */
export const TIME_ZONES = ["PST", "MST", "CST", "EST"] as const;
export type ApplicationTimeZone = (typeof TIME_ZONES)[number];
/** What an admin decides about an application; it is `pending` until then. */
export const APPLICATION_DECISIONS = ["approved", "rejected"] as const;
export type ApplicationDecision = (typeof APPLICATION_DECISIONS)[number];
export const APPLICATION_STATUSES = ["pending", ...APPLICATION_DECISIONS] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export const DEFAULT_PAYMENT_TERMS = "Net 30";
/** The partner team's promise (product rule 50): an answer to every application within this many hours. */
export const APPLICATION_REVIEW_HOURS = 48;
export const DEFAULT_TIME_ZONE = "EST";

/** Documents (product rule 34): optional, at most 5, each at most 10 MB, PDF, Word or any image. */
export const MAX_DOCUMENTS = 5;
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** The kinds of document accepted (product rule 34), each recognised by its full file signature, not by its name. */
export const DOCUMENT_TYPES = {
  pdf: { contentType: "application/pdf", extension: "pdf" },
  doc: { contentType: "application/msword", extension: "doc" },
  docx: {
    contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    extension: "docx",
  },
  jpeg: { contentType: "image/jpeg", extension: "jpg" },
  png: { contentType: "image/png", extension: "png" },
  gif: { contentType: "image/gif", extension: "gif" },
  webp: { contentType: "image/webp", extension: "webp" },
  heic: { contentType: "image/heic", extension: "heic" },
  avif: { contentType: "image/avif", extension: "avif" },
} as const;
export type DocumentType = keyof typeof DOCUMENT_TYPES;

const IMAGE_CONTENT_TYPES: string[] = Object.values(DOCUMENT_TYPES)
  .map((type) => type.contentType)
  .filter((type) => type.startsWith("image/"));
export const DOCUMENT_ACCEPT = [
  ".pdf,.doc,.docx",
  ...Object.values(DOCUMENT_TYPES).map((type) => type.contentType),
  ".jpg,.jpeg,.png,.gif,.webp,.heic,.heif,.avif",
].join(",");

export const DOCUMENT_ERRORS = {
  tooLarge: {
    title: "File Too Large",
    message: (name: string) => `${name} is larger than ${megabytes(MAX_DOCUMENT_BYTES)}.`,
  },
  invalidType: {
    title: "Invalid File Type",
    message: (name: string) => `${name} is not a PDF, Word document or image.`,
  },
  tooMany: { title: "Too Many Files", message: () => `You can upload a maximum of ${MAX_DOCUMENTS} documents.` },
} as const;

const IMAGE_EXTENSIONS = /\.(jpe?g|png|gif|webp|heic|heif|avif)$/i;

/** The browser's first check, by name and type; the server checks the file's bytes too. */
export function looksLikeAllowedDocument(file: { name: string; type: string }): boolean {
  return (
    /\.(pdf|docx?)$/i.test(file.name) ||
    IMAGE_EXTENSIONS.test(file.name) ||
    IMAGE_CONTENT_TYPES.includes(file.type) ||
    file.type === "application/pdf"
  );
}

/** Whether `bytes` holds `needle` (ASCII, or UTF-16LE when `wide`) anywhere from `from` on. */
function contains(bytes: Uint8Array, needle: string, { wide = false, from = 0 } = {}): boolean {
  const pattern = Array.from(needle).flatMap((char) => (wide ? [char.charCodeAt(0), 0] : [char.charCodeAt(0)]));
  const first = pattern[0];
  for (let i = bytes.indexOf(first ?? 0, from); i >= 0; i = bytes.indexOf(first ?? 0, i + 1)) {
    if (pattern.every((byte, j) => bytes[i + j] === byte)) return true;
  }
  return false;
}

/**
 * What a file really is, from its bytes (product rule 34); null when it is none of the allowed kinds. Each kind is
 * checked by its whole signature: a PDF's version header and end marker, a Word 97 file's OLE header and
 * WordDocument stream, a DOCX's ZIP header with its content-types part and word/ folder, an image's
 * complete magic number and first chunk. BMP and TIFF are not accepted.
 */
export function sniffDocument(bytes: Uint8Array): DocumentType | null {
  const startsWith = (at: number, ...signature: number[]) => signature.every((byte, i) => bytes[at + i] === byte);
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.slice(from, to));
  if (/^%PDF-[12]\.\d$/.test(ascii(0, 8)) && contains(bytes, "%%EOF", { from: Math.max(0, bytes.length - 1024) })) {
    return "pdf";
  }
  if (
    startsWith(0, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1) &&
    contains(bytes, "WordDocument", { wide: true })
  ) {
    return "doc";
  }
  if (startsWith(0, 0x50, 0x4b, 0x03, 0x04) && contains(bytes, "[Content_Types].xml") && contains(bytes, "word/")) {
    return "docx";
  }
  if (startsWith(0, 0xff, 0xd8, 0xff) && (bytes[3] ?? 0) >= 0xc0 && (bytes[3] ?? 0) !== 0xff) return "jpeg";
  if (startsWith(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a) && ascii(12, 16) === "IHDR") return "png";
  if (/^GIF8[79]a$/.test(ascii(0, 6))) return "gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 15).startsWith("WEBPVP8")) return "webp";
  if (ascii(4, 8) === "ftyp") {
    const brand = ascii(8, 12);
    if (brand === "avif" || brand === "avis") return "avif";
    if (/^(heic|heix|heim|heis|mif1)$/.test(brand)) return "heic";
  }
  return null;
}

/** The name a document downloads under: the application's business name, its position and its type. */
export function documentFileName(businessName: string, position: number, type: DocumentType | string): string {
  const slug =
    businessName
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60)
      .replace(/-+$/, "") || "partner";
  const extension =
    type in DOCUMENT_TYPES
      ? DOCUMENT_TYPES[type as DocumentType].extension
      : (Object.values(DOCUMENT_TYPES).find((known) => known.contentType === type)?.extension ?? "bin");
  return `${slug}-document-${position}.${extension}`;
}

/**
 * The partner application's rules that the form needs without zod (decision 0016): payment terms, time
 * zones and the document limits (spec §5; PRODUCT.md D9). The schema is in schemas/partner.ts.
 */
export const PAYMENT_TERMS = ["Net 7", "Net 15", "Net 30"] as const;
export const TIME_ZONES = ["PST", "MST", "CST", "EST"] as const;
export const DEFAULT_PAYMENT_TERMS = "Net 30";
export const DEFAULT_TIME_ZONE = "EST";

/** Documents (spec §5): optional, at most 5, each at most 10 MB, PDF, Word or any image. */
export const MAX_DOCUMENTS = 5;
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const DOCUMENT_ACCEPT =
  ".pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document,image/*";

export const DOCUMENT_ERRORS = {
  tooLarge: { title: "File Too Large", message: (name: string) => `${name} is larger than 10 MB.` },
  invalidType: {
    title: "Invalid File Type",
    message: (name: string) => `${name} is not a PDF, Word document or image.`,
  },
  tooMany: { title: "Too Many Files", message: () => `You can upload a maximum of ${MAX_DOCUMENTS} documents.` },
} as const;

const IMAGE_EXTENSIONS = /\.(jpe?g|png|gif|webp|bmp|tiff?|heic|heif|avif)$/i;

/** The browser's first check, by name and type; the server checks the file's bytes too. */
export function looksLikeAllowedDocument(file: { name: string; type: string }): boolean {
  return (
    /\.(pdf|docx?)$/i.test(file.name) ||
    IMAGE_EXTENSIONS.test(file.name) ||
    file.type.startsWith("image/") ||
    file.type === "application/pdf"
  );
}

export type DocumentKind = "pdf" | "doc" | "docx" | "image";

/** What a file really is, from its first bytes (D9); null when it is none of the allowed kinds. */
export function sniffDocument(bytes: Uint8Array, name: string): { kind: DocumentKind; contentType: string } | null {
  const startsWith = (...signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.slice(from, to));
  if (startsWith(0x25, 0x50, 0x44, 0x46, 0x2d)) return { kind: "pdf", contentType: "application/pdf" };
  if (startsWith(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1))
    return { kind: "doc", contentType: "application/msword" };
  if (startsWith(0x50, 0x4b, 0x03, 0x04) && /\.docx$/i.test(name)) {
    return { kind: "docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" };
  }
  if (startsWith(0xff, 0xd8, 0xff)) return { kind: "image", contentType: "image/jpeg" };
  if (startsWith(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { kind: "image", contentType: "image/png" };
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return { kind: "image", contentType: "image/gif" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return { kind: "image", contentType: "image/webp" };
  if (startsWith(0x42, 0x4d)) return { kind: "image", contentType: "image/bmp" };
  if (startsWith(0x49, 0x49, 0x2a, 0x00) || startsWith(0x4d, 0x4d, 0x00, 0x2a))
    return { kind: "image", contentType: "image/tiff" };
  if (ascii(4, 8) === "ftyp" && /^(heic|heix|mif1|avif)/.test(ascii(8, 12))) {
    return { kind: "image", contentType: ascii(8, 12) === "avif" ? "image/avif" : "image/heic" };
  }
  return null;
}

/**
 * Suppression list files: a pure parser fed a file piece by piece, so millions of lines
 * never sit in memory at once. It reads:
 * - the National Do Not Call Registry's flat files: one 10-digit number a line, or `areacode,number` (the
 *   full list), and its change lists, comma-separated records that begin with the number and may carry a
 *   date and an add/delete flag (`A`/`D`);
 * - state lists and litigator lists: one number a line, formatted as people type them ((305) 555-0100,
 *   +1 305 555 0100, 305.555.0100).
 * Numbers come out as integers (`phoneKey`, suppression.ts). Each line is accepted, a duplicate, blank, the
 * header, or rejected with a reason; a file that is empty, binary, or not a list of numbers at all is
 * refused whole (`SuppressionFileError`), and the caller keeps nothing of it.
 */
import { phoneKey } from "./suppression.ts";

/** What a file holds: the whole list (it replaces the list's numbers), numbers to add, to remove, or both. */
export const SUPPRESSION_FILE_KINDS = ["full", "additions", "deletions", "changes"] as const;
export type SuppressionFileKind = (typeof SUPPRESSION_FILE_KINDS)[number];

export const SUPPRESSION_FILE_KIND_LABELS: Record<SuppressionFileKind, string> = {
  full: "Full list (replaces the list)",
  additions: "Additions",
  deletions: "Deletions",
  changes: "Change list (each line flagged A or D)",
};

/** A line longer than this is no phone number: it is rejected, and never held in memory whole. */
export const MAX_LINE_LENGTH = 200;
/** The report lists the first this many rejected lines; it counts them all. */
export const REPORTED_REJECTIONS = 100;
/** When none of the first this many lines with content holds a number, the file is not a suppression list. */
export const SNIFF_LINES = 50;
/** Numbers remembered to count repeats: a bounded window (the database's primary key catches the rest). */
const DEDUPE_WINDOW = 100_000;

/** Why a line is rejected (the report lists the first `REPORTED_REJECTIONS` with their line numbers). */
export const LINE_ERRORS = {
  tooLong: `Line is longer than ${MAX_LINE_LENGTH} characters`,
  formula: "Refused: a spreadsheet formula (starts with =, +, - or @)",
  notANumber: "Not a phone number",
  notUs: "Not a US number (only +1 numbers can be suppressed)",
  digits: "Not a 10-digit US phone number",
  areaCode: "Not a US number: an area code starts with 2-9",
  extraColumn: "Unexpected column: a line holds a number, or area code,number, then at most a date and an A/D flag",
  deletionInAdditions: "A deletion (D) in a file of additions: upload it as a change list",
  additionInDeletions: "An addition (A) in a file of deletions: upload it as a change list",
  flagMissing: "A change-list line needs a flag: A (added) or D (deleted)",
} as const;

/** Why a whole file is refused: nothing of it is kept. */
export const FILE_ERRORS = {
  empty: "The file is empty: it has no phone numbers.",
  binary: "This is not a text file. Upload the list as plain text (.txt or .csv), one number a line.",
  zip: "This is a ZIP archive. Unzip it and upload the text file inside.",
  leadFile:
    "This looks like a lead file (it has columns such as name, e-mail or state), not a suppression list: one phone number a line, or area code,number.",
  noNumbers: `None of the first ${SNIFF_LINES} lines is a phone number: this does not look like a suppression list (one 10-digit US number a line, or area code,number).`,
  allRejected: "No line of the file is a phone number: nothing was loaded.",
} as const;

type LineAction = "add" | "remove";
export type ParsedLine = { action: LineAction; number: number } | { reason: string } | null;

const FLAGS: Record<string, LineAction> = {
  a: "add",
  add: "add",
  added: "add",
  addition: "add",
  d: "remove",
  del: "remove",
  delete: "remove",
  deleted: "remove",
  deletion: "remove",
};
/** 2026-08-01, 2026-08-01 10:00:00, 20260801, 8/1/2026: a change list's date column (not used). */
const DATE = /^(\d{4}-\d{2}-\d{2}([ T][\d:.]+)?|\d{8}|\d{1,2}\/\d{1,2}\/\d{2,4})$/;
/** What a phone may be written with: digits, spaces, ( ) . - and a leading +. */
const PHONE_TEXT = /^\+?[\d\s().-]+$/;
const FORMULA = /^[=+\-@]/;
const BARE_NUMBER = /^\d{10}$/;
/** Column names of a lead file (the shop's template, a vendor's export), as whole words. */
const LEAD_FILE_COLUMN = /(^|[^a-z])(name|e-?mail|state|address|city|zip|price|age)([^a-z]|$)/i;

const unquote = (field: string) => {
  const trimmed = field.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1).trim()
    : trimmed;
};

/** Why a field that should be a phone is not one, or its key. */
function readPhone(text: string): number | { reason: string } {
  if (!PHONE_TEXT.test(text)) return { reason: LINE_ERRORS.notANumber };
  if (/^\+\s*[02-9]/.test(text)) return { reason: LINE_ERRORS.notUs };
  const key = phoneKey(text);
  if (key !== null) return key;
  const digits = text.replace(/\D/g, "");
  if (digits.length === 10 || (digits.length === 11 && digits.startsWith("1"))) return { reason: LINE_ERRORS.areaCode };
  return { reason: LINE_ERRORS.digits };
}

/**
 * One line of a suppression file of the given kind: a number to add or remove, a rejection, or null for a
 * blank line. Fields are separated by commas or tabs and may be quoted.
 */
export function parseSuppressionLine(line: string, kind: SuppressionFileKind): ParsedLine {
  // The registry's own shape, most lines of the biggest files: skip the splitting.
  if (kind !== "changes" && BARE_NUMBER.test(line)) {
    const number = phoneKey(line);
    if (number !== null) return { action: kind === "deletions" ? "remove" : "add", number };
  }
  if (line.trim() === "") return null;
  if (line.length > MAX_LINE_LENGTH) return { reason: LINE_ERRORS.tooLong };
  const fields = line.split(/[,\t]/).map(unquote);
  const [first = "", second = ""] = fields;
  const split = fields.length >= 2 && /^\d{3}$/.test(first) && /^\d{3}-?\d{4}$/.test(second);
  const rest = fields.slice(split ? 2 : 1);
  // A spreadsheet would run it; '+1 305 555 0100' is a phone, '+1+1' or '+SUM(A1)' is not.
  if (fields.some((field) => FORMULA.test(field) && !(field.startsWith("+") && PHONE_TEXT.test(field)))) {
    return { reason: LINE_ERRORS.formula };
  }
  const number = readPhone(split ? `${first}${second}` : first);
  if (typeof number !== "number") return number;

  let flag: LineAction | undefined;
  for (const field of rest) {
    if (field === "" || DATE.test(field)) continue;
    const action = FLAGS[field.toLowerCase()];
    if (!action || flag) return { reason: LINE_ERRORS.extraColumn };
    flag = action;
  }
  if (kind === "changes") return flag ? { action: flag, number } : { reason: LINE_ERRORS.flagMissing };
  if (kind === "deletions")
    return flag === "add" ? { reason: LINE_ERRORS.additionInDeletions } : { action: "remove", number };
  return flag === "remove" ? { reason: LINE_ERRORS.deletionInAdditions } : { action: "add", number };
}

/** What a file held, line by line: lines = header + blank + accepted + duplicates + rejected. */
export interface SuppressionFileReport {
  lines: number;
  /** The first line held no digit and was skipped as column names. */
  header: boolean;
  blank: number;
  /** Numbers handed out: `added` to add, `removed` to remove. */
  accepted: number;
  added: number;
  removed: number;
  /** Repeats of a number (and action) seen within the last `DEDUPE_WINDOW` numbers. */
  duplicates: number;
  rejected: number;
  /** The first `REPORTED_REJECTIONS` rejected lines, by line number (the first line is 1). */
  rejections: { line: number; reason: string }[];
}

/** A file refused whole; `report` says how far it was read. */
export class SuppressionFileError extends Error {
  constructor(
    message: string,
    readonly report: SuppressionFileReport,
  ) {
    super(message);
    this.name = "SuppressionFileError";
  }
}

/** The numbers one piece of the file gave, to write before the next piece is read. */
export interface SuppressionBatch {
  add: number[];
  remove: number[];
}

export interface SuppressionFileParser {
  /** Reads a piece of the file (any split, even inside a line or a CRLF) and answers the numbers it completed. */
  push(chunk: string): SuppressionBatch;
  /** The last line, and the report; throws `SuppressionFileError` for a file that is refused whole. */
  end(): { batch: SuppressionBatch; report: SuppressionFileReport };
  /** The report so far (for a progress bar). */
  readonly report: SuppressionFileReport;
  /** Characters held for a line not yet complete: never more than `MAX_LINE_LENGTH` and a carriage return. */
  readonly pendingCharacters: number;
  /** Numbers remembered for counting repeats: never more than the window. */
  readonly rememberedNumbers: number;
}

export function createSuppressionFileParser(
  kind: SuppressionFileKind,
  options: { dedupeWindow?: number; reportedRejections?: number } = {},
): SuppressionFileParser {
  const windowSize = options.dedupeWindow ?? DEDUPE_WINDOW;
  const reported = options.reportedRejections ?? REPORTED_REJECTIONS;
  const report: SuppressionFileReport = {
    lines: 0,
    header: false,
    blank: 0,
    accepted: 0,
    added: 0,
    removed: 0,
    duplicates: 0,
    rejected: 0,
    rejections: [],
  };
  let pending = "";
  /** Set while a line past the cap is skipped; `head` keeps its start (to tell a lead file's header). */
  let overlong = false;
  let head = "";
  let started = false;
  let failure: SuppressionFileError | null = null;
  /** Added numbers are kept as themselves, removed ones negated, so adding and removing one number are two. */
  let seen = new Set<number>();

  const fail = (message: string): never => {
    failure = new SuppressionFileError(message, report);
    throw failure;
  };

  function line(text: string, batch: SuppressionBatch, tooLong: boolean) {
    report.lines += 1;
    const content = text.endsWith("\r") ? text.slice(0, -1) : text;
    const firstWithContent = report.lines - 1 === report.blank;
    if (firstWithContent && content.trim() !== "" && !/\d/.test(content)) {
      // The first line with content and without a digit: column names (of a long line, its start).
      if (content.split(/[,\t]/).some((column) => LEAD_FILE_COLUMN.test(column))) fail(FILE_ERRORS.leadFile);
      if (!tooLong) {
        report.header = true;
        return;
      }
    }
    const parsed = tooLong ? { reason: LINE_ERRORS.tooLong } : parseSuppressionLine(content, kind);
    if (parsed === null) {
      report.blank += 1;
    } else if ("reason" in parsed) {
      report.rejected += 1;
      if (report.rejections.length < reported) report.rejections.push({ line: report.lines, reason: parsed.reason });
      if (report.accepted + report.duplicates === 0 && report.rejected >= SNIFF_LINES) fail(FILE_ERRORS.noNumbers);
    } else {
      const seenAs = parsed.action === "add" ? parsed.number : -parsed.number;
      if (seen.has(seenAs)) {
        report.duplicates += 1;
        return;
      }
      if (seen.size >= windowSize) seen = new Set();
      seen.add(seenAs);
      report.accepted += 1;
      if (parsed.action === "add") {
        report.added += 1;
        batch.add.push(parsed.number);
      } else {
        report.removed += 1;
        batch.remove.push(parsed.number);
      }
    }
  }

  function firstChunk(chunk: string): string {
    started = true;
    if (chunk.startsWith("PK\u0003\u0004")) fail(FILE_ERRORS.zip);
    const text = chunk.startsWith("\uFEFF") ? chunk.slice(1) : chunk;
    if (text.slice(0, 4096).includes("\u0000")) fail(FILE_ERRORS.binary);
    return text;
  }

  return {
    push(chunk) {
      if (failure) throw failure;
      const text = started || chunk === "" ? chunk : firstChunk(chunk);
      const batch: SuppressionBatch = { add: [], remove: [] };
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        const whole = overlong ? head : pending + text.slice(start, end);
        const tooLong = overlong || whole.length > MAX_LINE_LENGTH + 1;
        line(tooLong ? whole.slice(0, MAX_LINE_LENGTH) : whole, batch, tooLong);
        pending = "";
        overlong = false;
        start = end + 1;
      }
      if (!overlong) {
        pending += text.slice(start);
        // A line this long is rejected whatever follows: drop it now instead of holding it.
        if (pending.length > MAX_LINE_LENGTH + 1) {
          overlong = true;
          head = pending.slice(0, MAX_LINE_LENGTH);
          pending = "";
        }
      }
      return batch;
    },
    end() {
      if (failure) throw failure;
      const batch: SuppressionBatch = { add: [], remove: [] };
      if (overlong || pending !== "") line(overlong ? head : pending, batch, overlong);
      pending = "";
      overlong = false;
      seen = new Set();
      if (report.accepted + report.duplicates === 0) {
        fail(report.rejected === 0 ? FILE_ERRORS.empty : FILE_ERRORS.allRejected);
      }
      return { batch, report };
    },
    get report() {
      return report;
    },
    get pendingCharacters() {
      return pending.length;
    },
    get rememberedNumbers() {
      return seen.size;
    },
  };
}

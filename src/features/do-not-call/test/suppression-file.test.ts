import { describe, expect, it } from "vitest";
import { templateCsv } from "../../../domain/csv-writer";
import {
  createSuppressionFileParser,
  FILE_ERRORS,
  LINE_ERRORS,
  MAX_LINE_LENGTH,
  parseSuppressionLine,
  SNIFF_LINES,
  type SuppressionBatch,
  SuppressionFileError,
  type SuppressionFileKind,
  type SuppressionFileReport,
} from "../suppression-file";

/** Parses a whole file cut into pieces of `size` characters; answers every number and the report, or the refusal. */
function parse(text: string, kind: SuppressionFileKind = "full", size = 7) {
  const parser = createSuppressionFileParser(kind);
  const all: SuppressionBatch = { add: [], remove: [] };
  const take = (batch: SuppressionBatch) => {
    all.add.push(...batch.add);
    all.remove.push(...batch.remove);
  };
  try {
    for (let i = 0; i < text.length; i += size) take(parser.push(text.slice(i, i + size)));
    const { batch, report } = parser.end();
    take(batch);
    return { ...all, report, error: null };
  } catch (error) {
    if (!(error instanceof SuppressionFileError)) throw error;
    return { ...all, report: error.report, error: error.message };
  }
}

const reason = (line: string, kind: SuppressionFileKind = "full") => {
  const parsed = parseSuppressionLine(line, kind);
  return parsed && "reason" in parsed ? parsed.reason : null;
};

describe("the National DNC Registry's formats", () => {
  it("reads one 10-digit number a line, and area code,number lines, in any piece size", () => {
    const file = "3055550100\n3055550101\r\n305,5550102\r\n305,555-0103\n";
    for (const size of [1, 2, 5, 64, 10_000]) {
      const { add, remove, report, error } = parse(file, "full", size);
      expect(error).toBeNull();
      expect(add).toEqual([3055550100, 3055550101, 3055550102, 3055550103]);
      expect(remove).toEqual([]);
      expect(report).toMatchObject({ lines: 4, accepted: 4, added: 4, rejected: 0, blank: 0 });
    }
  });

  it("reads additions, deletions and change lists with their dates and A/D flags", () => {
    expect(parse("305,5550100,2026-11-01\n3055550101\n", "additions").add).toEqual([3055550100, 3055550101]);
    expect(parse("305,5550100,2026-11-01\n3055550101\n", "deletions").remove).toEqual([3055550100, 3055550101]);
    const changes = parse("305,5550100,2026-11-01,A\n305,5550101,20261101,D\n3055550102,Deleted\n", "changes");
    expect([changes.add, changes.remove]).toEqual([[3055550100], [3055550101, 3055550102]]);
  });

  it("never removes a number from a file that only adds, nor adds from one that only removes", () => {
    expect(reason("3055550100,D", "full")).toBe(LINE_ERRORS.deletionInAdditions);
    expect(reason("3055550100,D", "additions")).toBe(LINE_ERRORS.deletionInAdditions);
    expect(reason("3055550100,A", "deletions")).toBe(LINE_ERRORS.additionInDeletions);
    expect(reason("3055550100", "changes")).toBe(LINE_ERRORS.flagMissing);
    expect(reason("3055550100,A,D", "changes")).toBe(LINE_ERRORS.extraColumn);
  });

  it("skips a header line and blank lines, and counts them", () => {
    const { add, report } = parse("\uFEFFareacode,number\n\n305,5550100\n  \n");
    expect(add).toEqual([3055550100]);
    expect(report).toMatchObject({ lines: 4, header: true, blank: 2, accepted: 1 });
  });
});

describe("state and litigator lists, formatted as people type them", () => {
  it.each([
    ["(305) 555-0100"],
    ["+1 305 555 0100"],
    ["+1-305-555-0100"],
    ["1 (305) 555-0100"],
    ["305.555.0100"],
    ['"305-555-0100"'],
    ["  3055550100  "],
    ["3055550100\t2026-11-01"],
  ])("reads %s", (line) => {
    expect(parseSuppressionLine(line, "full")).toEqual({ action: "add", number: 3055550100 });
  });

  it.each([
    ["=3055550100", LINE_ERRORS.formula],
    ['=HYPERLINK("http://x","3055550100")', LINE_ERRORS.formula],
    ["@SUM(A1)", LINE_ERRORS.formula],
    ["-3055550100", LINE_ERRORS.formula],
    ["+1+3055550100", LINE_ERRORS.formula],
    ["+SUM(A1:A2)", LINE_ERRORS.formula],
    ['"=1+1"', LINE_ERRORS.formula],
    ["3055550100,=cmd|' /C calc'!A0", LINE_ERRORS.formula],
    ["+44 20 7946 0958", LINE_ERRORS.notUs],
    ["+52 55 1234 5678", LINE_ERRORS.notUs],
    ["0305550100", LINE_ERRORS.areaCode],
    ["1305550100", LINE_ERRORS.areaCode],
    ["555-0100", LINE_ERRORS.digits],
    ["23055550100", LINE_ERRORS.digits],
    ["305-555-0100 ext 12", LINE_ERRORS.notANumber],
    ["Mary Johnson,3055550100,FL", LINE_ERRORS.notANumber],
    ["3055550100,FL", LINE_ERRORS.extraColumn],
    ["x".repeat(MAX_LINE_LENGTH + 1), LINE_ERRORS.tooLong],
  ])("refuses %s", (line, expected) => {
    expect(reason(line)).toBe(expected);
  });

  it("stores nothing of a refused line, and reports where it was", () => {
    const { add, report } = parse("3055550100\n=3055550101\n+44 20 7946 0958\n3055550102\n");
    expect(add).toEqual([3055550100, 3055550102]);
    expect(report.rejections).toEqual([
      { line: 2, reason: LINE_ERRORS.formula },
      { line: 3, reason: LINE_ERRORS.notUs },
    ]);
    expect(report).toMatchObject({ accepted: 2, rejected: 2 });
  });
});

describe("counts", () => {
  it("counts repeats, and a number added and removed in one change list as two", () => {
    const { add, remove, report } = parse("3055550100\n(305) 555-0100\n3055550101\n3055550100\n");
    expect(add).toEqual([3055550100, 3055550101]);
    expect(remove).toEqual([]);
    expect(report).toMatchObject({ accepted: 2, duplicates: 2 });
    const changes = parse("3055550100,A\n3055550100,D\n", "changes");
    expect([changes.add, changes.remove, changes.report.duplicates]).toEqual([[3055550100], [3055550100], 0]);
  });

  it("lists the first rejections by line number and counts them all", () => {
    const lines = ["3055550100", ...Array.from({ length: 150 }, (_, i) => `bad ${i}`)];
    const parser = createSuppressionFileParser("full", { reportedRejections: 10 });
    parser.push(`${lines.join("\n")}\n`);
    const { report } = parser.end();
    expect(report.rejected).toBe(150);
    expect(report.rejections.map((rejection) => rejection.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it("adds up: every line is the header, blank, accepted, a duplicate or rejected", () => {
    const { report } = parse("phone\n3055550100\n\n3055550100\nnope\n3055550101");
    const { lines, header, blank, accepted, duplicates, rejected } = report;
    expect([lines, Number(header) + blank + accepted + duplicates + rejected]).toEqual([6, 6]);
  });
});

describe("bad files are refused whole, with a clear message", () => {
  const refusal = (text: string, kind: SuppressionFileKind = "full") => parse(text, kind, 4096).error;

  it("an empty file, or one with only a header and blank lines", () => {
    expect(refusal("")).toBe(FILE_ERRORS.empty);
    expect(refusal("\n\r\n  \n")).toBe(FILE_ERRORS.empty);
    expect(refusal("phone number\n\n")).toBe(FILE_ERRORS.empty);
  });

  it("a lead CSV uploaded as a suppression list", () => {
    expect(refusal(templateCsv())).toBe(FILE_ERRORS.leadFile);
    expect(refusal("first_name,phone\nAnn,3055550100\n")).toBe(FILE_ERRORS.leadFile);
  });

  it("a file whose first lines are no numbers at all, however long it is", () => {
    const rows = Array.from({ length: SNIFF_LINES + 10 }, (_, i) => `Mary ${i},3055550100,FL`).join("\n");
    const parsed = parse(`${rows}\n3055550100\n`);
    expect(parsed.error).toBe(FILE_ERRORS.noNumbers);
    expect(parsed.report.lines).toBe(SNIFF_LINES);
    expect(refusal("one\ntwo\n")).toBe(FILE_ERRORS.allRejected);
  });

  it("a ZIP archive (the registry's downloads come zipped) and a binary file", () => {
    expect(refusal("PK\u0003\u0004\u0014\u0000\u0008\u0000")).toBe(FILE_ERRORS.zip);
    expect(refusal("3055550100\n\u0000\u0001\u0002")).toBe(FILE_ERRORS.binary);
  });

  it("keeps refusing after a refusal", () => {
    const parser = createSuppressionFileParser("full");
    expect(() => parser.push("PK\u0003\u0004")).toThrow(SuppressionFileError);
    expect(() => parser.push("3055550100\n")).toThrow(FILE_ERRORS.zip);
    expect(() => parser.end()).toThrow(FILE_ERRORS.zip);
  });
});

describe("huge lines", () => {
  it("rejects a line past the cap without holding it, and reads on", () => {
    const parser = createSuppressionFileParser("full");
    const batches: SuppressionBatch[] = [parser.push("3055550100\n")];
    for (let i = 0; i < 1000; i += 1) {
      batches.push(parser.push("9".repeat(10_000)));
      expect(parser.pendingCharacters).toBeLessThanOrEqual(MAX_LINE_LENGTH + 1);
    }
    batches.push(parser.push("\n3055550101"));
    const { batch, report } = parser.end();
    expect([...batches, batch].flatMap((b) => b.add)).toEqual([3055550100, 3055550101]);
    expect(report.rejections).toEqual([{ line: 2, reason: LINE_ERRORS.tooLong }]);
  });

  it("rejects a long line that arrives in one piece, and one as long as the cap passes", () => {
    const padded = `${" ".repeat(MAX_LINE_LENGTH - 10)}3055550100`;
    const { add, report } = parse(`${padded}\n${"1".repeat(MAX_LINE_LENGTH + 5)}\n`, "full", 100_000);
    expect(add).toEqual([3055550100]);
    expect(report.rejections).toEqual([{ line: 2, reason: LINE_ERRORS.tooLong }]);
  });
});

describe("streaming", () => {
  it("parses 1,000,000 lines fed in 64 KiB pieces holding at most one line and a bounded window", () => {
    const total = 1_000_000;
    const window = 50_000;
    const parser = createSuppressionFileParser("full", { dedupeWindow: window });
    const heapBefore = process.memoryUsage().heapUsed;
    let accepted = 0;
    let sum = 0;
    let maxPending = 0;
    let maxRemembered = 0;
    let piece = "";
    const feed = (text: string) => {
      const batch = parser.push(text);
      accepted += batch.add.length;
      for (const number of batch.add) sum += number - 2_000_000_000;
      maxPending = Math.max(maxPending, parser.pendingCharacters);
      maxRemembered = Math.max(maxRemembered, parser.rememberedNumbers);
    };
    for (let i = 0; i < total; i += 1) {
      // Every other line in area code,number form; the numbers are all different.
      const number = 2_000_000_000 + i * 7;
      piece += i % 2 ? `${String(number).slice(0, 3)},${String(number).slice(3)}\r\n` : `${number}\n`;
      if (piece.length >= 65_536) {
        // Cut mid-line, as a stream's pieces fall.
        feed(piece.slice(0, 65_530));
        feed(piece.slice(65_530));
        piece = "";
      }
    }
    feed(piece);
    const { batch, report } = parser.end();
    accepted += batch.add.length;
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;

    expect(report).toMatchObject({ lines: total, accepted: total, rejected: 0, duplicates: 0 });
    expect(accepted).toBe(total);
    expect(sum).toBe((7 * (total - 1) * total) / 2);
    expect(maxPending).toBeLessThanOrEqual(MAX_LINE_LENGTH + 1);
    expect(maxRemembered).toBeLessThanOrEqual(window);
    // Garbage not yet collected is counted too: this only catches a parser that keeps what it read.
    expect(heapGrowth).toBeLessThan(128 * 1024 * 1024);
    // A second or two alone; the machine's other work may slow it down several times.
  }, 60_000);

  it("hands out each piece's numbers as it goes", () => {
    const parser = createSuppressionFileParser("full");
    expect(parser.push("3055550100\n30555").add).toEqual([3055550100]);
    expect(parser.push("50101\n").add).toEqual([3055550101]);
    const report: SuppressionFileReport = parser.end().report;
    expect(report.accepted).toBe(2);
  });
});

import { describe, expect, it } from "vitest";
import { detectDialect, scanRows } from "../views/uploads/csv-scan";

async function scanAll(blob: Blob, start = 0, chunkBytes = 7) {
  const dialect = await detectDialect(blob);
  const rows: { cells: string[]; offset: number }[] = [];
  for await (const chunk of scanRows(blob, dialect, start, chunkBytes)) rows.push(...chunk);
  return rows;
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("scanRows (the parse worker's streaming reader)", () => {
  const text =
    'Name,Phone,State\r\n"Zoë ""Z"" Ñúñez",2145550101,TX\r\n\r\n"Line\r\nbreak",3055550102,FL\r\n日本 太郎,4045550103,GA\r\nLast,5055550104,NM';

  it.each([3, 7, 16, 1024])(
    "reads every row across %i-byte slices: quotes, line breaks in fields, multi-byte text, empty lines",
    async (chunkBytes) => {
      const rows = await scanAll(new Blob([text]), 0, chunkBytes);
      expect(rows.map((row) => row.cells)).toEqual([
        ["Name", "Phone", "State"],
        ['Zoë "Z" Ñúñez', "2145550101", "TX"],
        ["Line\r\nbreak", "3055550102", "FL"],
        ["日本 太郎", "4045550103", "GA"],
        ["Last", "5055550104", "NM"],
      ]);
    },
  );

  it("gives each row's byte offset, and reading from that offset starts at that row", async () => {
    const blob = new Blob([`\ufeff${text}\n`]);
    const file = bytes(`\ufeff${text}\n`);
    const rows = await scanAll(blob);
    expect(rows[0]?.cells[0]).toBe("Name");
    for (const row of rows) {
      const from = await scanAll(blob, row.offset, 5);
      expect(from[0]?.cells).toEqual(row.cells);
      // The offset is where the row's own bytes begin in the file.
      const rest = new TextDecoder().decode(file.slice(row.offset));
      const first = row.cells[0] ?? "";
      expect(rest.startsWith(/["\n]/.test(first) ? '"' : first)).toBe(true);
    }
  });

  it("detects semicolons and plain line feeds", async () => {
    const rows = await scanAll(new Blob(["a;b\n1;2\n3;4\n"]));
    expect(rows.map((row) => row.cells)).toEqual([
      ["a", "b"],
      ["1", "2"],
      ["3", "4"],
    ]);
  });
});

import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { csvLines, templateCsv } from "../../src/domain/csv-writer";

describe("the one CSV writer", () => {
  it.each([
    ["=", '=HYPERLINK("http://evil")'],
    ["+", "+1 214 555 0100"],
    ["-", "-2+3"],
    ["@", "@SUM(A1)"],
    ["a tab", "\t=1"],
    ["a carriage return", "\r=1"],
    ["= with a line break after it", "=1\n+2"],
  ])("escapes a cell starting with %s as a quoted text cell", (_, cell) => {
    const line = csvLines([["Ann", cell]]);
    expect(line.startsWith("Ann,\"'")).toBe(true);
    // Read back, the cell is the text with its leading quote, never a formula.
    expect(Papa.parse<string[]>(line).data[0]).toEqual(["Ann", `'${cell}`]);
  });

  it("leaves ordinary cells as they are and quotes only where asked or needed", () => {
    expect(csvLines([[5, "rejected", "Name is required"]], [false, false, true])).toBe('5,rejected,"Name is required"');
    expect(csvLines([["a", 'say "hi"', "x,y", null]])).toBe('a,"say ""hi""","x,y",');
    expect(csvLines([["a"], ["b"]], true)).toBe('"a"\r\n"b"');
  });

  it("writes the upload template through it: every cell quoted, read back as written", () => {
    const csv = templateCsv();
    expect(csv.endsWith("\r\n")).toBe(true);
    const rows = Papa.parse<string[]>(csv.trimEnd()).data;
    expect(rows[1]?.slice(0, 3)).toEqual(["Mary Johnson", "2145550101", "TX"]);
    expect(csv.split("\r\n")[1]).toBe(csvLines([rows[1] ?? []], true));
  });
});

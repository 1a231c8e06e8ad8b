/**
 * docs/decisions/0083-loading-the-whole-registry.md: the FTC's formats are read strictly, the shop's earlier
 * 10-digit forms still are, and a file's first line is checked before the file is sent.
 */
import { describe, expect, it } from "vitest";
import {
  applyChangeList,
  checkRegistryFileStart,
  parseFullList,
  REGISTRY_FILE_ERRORS,
  RegistryFileError,
} from "../registry-file";

const lines = (...records: string[]) => records.map((record) => `${record}\n`).join("");
const bytes = (text: string) => new TextEncoder().encode(text);

describe("the FTC's full list (555,1234567 a line)", () => {
  it("reads area code and 7-digit number into the area code's bits, CRLF too, and the earlier 10 digits", () => {
    const bitmap = parseFullList(646, "646,5550100\r\n646,5550101\n6465550102\n");
    expect([...bitmap.keys()]).toEqual([6465550100, 6465550101, 6465550102]);
  });

  it.each([
    ["646,555010\n", REGISTRY_FILE_ERRORS.format(1, "full", "646,555010")],
    ["646 5550100\n", REGISTRY_FILE_ERRORS.format(1, "full", "646 5550100")],
    ["646,555010x\n", REGISTRY_FILE_ERRORS.format(1, "full", "646,555010x")],
    ["646,5550100,2026-11-27,A\n", REGISTRY_FILE_ERRORS.format(1, "full", "646,5550100,2026-11-27,A")],
    ["646,5550100\n212,5550100\n", REGISTRY_FILE_ERRORS.areaCode(2, 2125550100, 646)],
    ["646,5550100\n646,55501", REGISTRY_FILE_ERRORS.truncated(2)],
    ["", REGISTRY_FILE_ERRORS.empty("full")],
  ])("refuses %j: %s", (text, message) => {
    expect(() => parseFullList(646, text)).toThrow(message);
  });
});

describe("the change list (555,1234567,2026-11-27,A a line)", () => {
  it("adds and deletes in order, and still reads the earlier 5551234567,A", () => {
    const current = parseFullList(646, lines("646,5550100", "646,5550101"));
    const changed = applyChangeList(
      current,
      lines("646,5550100,2026-11-20,D", "646,5550102,2026-11-21,A", "6465550103,A", "646,5550101,2026-11-22,D"),
    );
    expect([...changed.bitmap.keys()]).toEqual([6465550102, 6465550103]);
    expect(changed).toMatchObject({ added: 2, removed: 2, lines: 4 });
    expect([...current.keys()]).toEqual([6465550100, 6465550101]);
  });

  it.each([
    "646,5550100,2026-11-27,X",
    "646,5550100,2026-13-27,A",
    "646,5550100,2026-11-00,D",
    "646,5550100,2026/11/27,A",
    "646,5550100;2026-11-27,A",
    "646,5550100,2026-11-27;A",
    "646,5550100,A",
    "646,5550100",
  ])("refuses the line %j with its line number, leaving the bits as they were", (line) => {
    const current = parseFullList(646, lines("646,5550199"));
    const text = lines("646,5550100,2026-11-27,A", line);
    expect(() => applyChangeList(current, text)).toThrow(
      new RegistryFileError(REGISTRY_FILE_ERRORS.format(2, "changes", line), 2),
    );
    expect([...current.keys()]).toEqual([6465550199]);
  });
});

describe("the first line, checked before a file is sent", () => {
  it("takes a right first line, and a head without any newline yet", () => {
    expect(() => checkRegistryFileStart("full", 646, bytes("646,5550100\n646,55"))).not.toThrow();
    expect(() => checkRegistryFileStart("changes", 646, bytes("646,5550100,2026-11-27,A\n"))).not.toThrow();
    expect(() => checkRegistryFileStart("full", 646, bytes("646,55"))).not.toThrow();
  });

  it("refuses a file of the other kind, of another area code, or no area code", () => {
    expect(() => checkRegistryFileStart("full", 646, bytes("646,5550100,2026-11-27,A\n"))).toThrow(
      REGISTRY_FILE_ERRORS.format(1, "full", "646,5550100,2026-11-27,A"),
    );
    expect(() => checkRegistryFileStart("changes", 646, bytes("646,5550100\n"))).toThrow(
      REGISTRY_FILE_ERRORS.format(1, "changes", "646,5550100"),
    );
    expect(() => checkRegistryFileStart("full", 646, bytes("212,5550100\n"))).toThrow(
      REGISTRY_FILE_ERRORS.areaCode(1, 2125550100, 646),
    );
    expect(() => checkRegistryFileStart("full", 123, bytes("123,5550100\n"))).toThrow(
      REGISTRY_FILE_ERRORS.noAreaCode(123),
    );
  });
});

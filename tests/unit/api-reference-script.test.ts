/**
 * Decision 0081: the API reference's script is served under a name with its version, and kept by browsers
 * for a year: the name must change with the installed package, or browsers would keep running the old one.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { API_REFERENCE_SCRIPT, API_REFERENCE_VERSION } from "../../src/config/api-reference";

const installed = JSON.parse(
  readFileSync(
    fileURLToPath(new URL("../../node_modules/@scalar/api-reference/package.json", import.meta.url)),
    "utf8",
  ),
) as { version: string };

describe("the API reference's script", () => {
  it("is named after the installed @scalar/api-reference version", () => {
    expect(API_REFERENCE_VERSION).toBe(installed.version);
    expect(API_REFERENCE_SCRIPT).toBe(`/vendor/scalar-api-reference-${installed.version}.js`);
  });
});

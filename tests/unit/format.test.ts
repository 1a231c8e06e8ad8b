import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  formatCount,
  formatDate,
  formatDateTime,
  formatDay,
  formatDayTimeIn,
  formatExactUtc,
  formatPhoneKey,
  formatUsd,
  formatWindowIn,
} from "../../src/domain/format";

describe("the one formatting module", () => {
  it("writes counts, money and phones the way every screen and e-mail shows them", () => {
    expect(formatCount(1_234_567)).toBe("1,234,567");
    expect(formatUsd(195_000)).toBe("$1950.00");
    expect(formatUsd(3_000, { cents: false })).toBe("$30");
    expect(formatUsd(3_050, { cents: false })).toBe("$30.50");
    expect(formatPhoneKey("3055550100")).toBe("(305) 555-0100");
  });

  it("writes a stored calendar day as that day in every reader's zone, and evidence in UTC", () => {
    expect(formatDay("2026-11-27")).toBe("Nov 27, 2026");
    expect(formatExactUtc(Date.UTC(2026, 10, 27, 14, 5, 7))).toBe("Nov 27, 2026, 2:05:07 PM");
  });

  it("takes an instant as a number, a Date or ISO text alike", () => {
    const at = Date.UTC(2026, 5, 15, 12);
    expect(formatDate(new Date(at))).toBe(formatDate(at));
    expect(formatDateTime(new Date(at).toISOString())).toBe(formatDateTime(at));
    expect(formatDate(at)).toMatch(/^Jun 1[45], 2026$/);
  });

  it("writes a call-back's window as the prospect's clock reads it, across a daylight-saving change", () => {
    const start = Date.UTC(2026, 10, 1, 5, 30); // Nov 1, 2026: 1:30 AM EDT, before clocks go back
    expect(formatDayTimeIn(start, "America/New_York")).toBe("Sun, Nov 1, 1:30 AM EDT");
    expect(formatWindowIn(start, start + 2 * 3_600_000, "America/New_York")).toBe(
      "Sun, Nov 1, 1:30 AM EDT – 2:30 AM EST",
    );
    expect(formatWindowIn(start, start + 3_600_000, "America/Phoenix")).toBe(
      "Sat, Oct 31, 10:30 PM MST – 11:30 PM MST",
    );
  });

  it("is the only place islands build date and number formatters", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (
          /\.(tsx?|astro)$/.test(entry.name) &&
          /new Intl\.|\.toLocale(String|DateString|TimeString)\(/.test(readFileSync(path, "utf8"))
        )
          offenders.push(path);
      }
    };
    walk("src/islands");
    walk("src/pages");
    // The features' views are islands too (decision 0077).
    for (const feature of readdirSync("src/features"))
      if (existsSync(`src/features/${feature}/views`)) walk(`src/features/${feature}/views`);
    expect(offenders).toEqual([]);
  });
});

/** How the Lead Tracker and the Fulfilment tab write transfers, and the returns form's cap sentence. */
import { describe, expect, it } from "vitest";
import { RETURN_CAP_PERCENT, RETURN_CAP_WINDOW_DAYS, remainingText } from "../../returns/returns";
import { NOT_CHARGED_LABEL, TRANSFER_BUFFER_SECONDS } from "../transfers";
import {
  chargeText,
  deliveryProgressText,
  formatDuration,
  formatInZone,
  formatRate,
  todayText,
} from "../views/transfer-format";

describe("transfer formatting", () => {
  it("writes durations as m:ss and an unfinished call as a dash", () => {
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(65)).toBe("1:05");
    expect(formatDuration(TRANSFER_BUFFER_SECONDS + 1)).toBe("2:01");
    expect(formatDuration(3600)).toBe("60:00");
    expect(formatDuration(null)).toBe("—");
  });

  it("states an order's progress and today's count against its cap", () => {
    expect(deliveryProgressText(32, 50, 4)).toBe("32 of 50 delivered, 4 not charged");
    expect(todayText(3, 10)).toBe("3 today of 10 a day");
    expect(todayText(3, null)).toBe("3 today");
  });

  it("says whether a transfer is charged, from the buffer rule", () => {
    expect(chargeText({ billable: true, durationSeconds: 300 })).toBe("Billable");
    expect(chargeText({ billable: false, durationSeconds: 90 })).toBe(NOT_CHARGED_LABEL);
    expect(NOT_CHARGED_LABEL).toBe("under 2 minutes — not charged");
    expect(chargeText({ billable: false, durationSeconds: null })).toBe("Not completed");
  });

  it("shows a time in the order's own time zone", () => {
    const instant = Date.UTC(2026, 10, 23, 15, 5); // 15:05 UTC
    expect(formatInZone(instant, "America/New_York")).toBe("Nov 23, 2026, 10:05 AM EST");
    expect(formatInZone(instant, "America/Los_Angeles")).toBe("Nov 23, 2026, 7:05 AM PST");
  });

  it("writes a rate as a whole percentage", () => {
    expect(formatRate(2 / 3)).toBe("67%");
    expect(formatRate(null)).toBe("—");
  });
});

describe("returns form", () => {
  it("says how many returns remain, built from the cap rule", () => {
    expect(remainingText(3)).toBe(
      `You can return 3 more this period (up to ${RETURN_CAP_PERCENT}% of your deliveries in the last ${RETURN_CAP_WINDOW_DAYS} days).`,
    );
    expect(remainingText(0)).toContain("You cannot return more this period");
  });

  it("keeps the sentence's length while the count loads", () => {
    expect(remainingText(undefined)).toBe(remainingText(3).replace("3", "…"));
  });
});

import { describe, expect, it } from "vitest";
import { SAMPLE_DELIVERY_SETTINGS } from "../../../../tests/delivery-settings-sample";
import { payPerTransferCents } from "../../partners/schemas/partner-account";
import {
  deliverySettingsFromDetails,
  inputFromSettings,
  isLiveTransferOrder,
  settingsFromInput,
  statesFromText,
} from "../delivery-setup";
import { deliverySettingsInputSchema } from "../schemas/delivery-setup";
import { isDeliveryComplete } from "../transfers";

describe("isLiveTransferOrder", () => {
  it("covers the five contexts that sell live transfers and nothing else", () => {
    expect(isLiveTransferOrder("transfer", {})).toBe(true);
    expect(isLiveTransferOrder("package", {})).toBe(true);
    expect(isLiveTransferOrder("survey", { leadType: "Live Transfers" })).toBe(true);
    expect(isLiveTransferOrder("survey", { leadType: "Call-Backs" })).toBe(false);
    expect(isLiveTransferOrder("ringcloud", { packageType: "live_transfers" })).toBe(true);
    expect(isLiveTransferOrder("ringcloud", { packageType: "partial_apps" })).toBe(false);
    expect(isLiveTransferOrder("aged-leads", {})).toBe(false);
  });
});

describe("deliverySettingsFromDetails", () => {
  it("reads a dashboard order completely, the zone from its first state", () => {
    const settings = deliverySettingsFromDetails({
      transferPhone: "+1 (555) 999-0000",
      selectedStates: ["CA", "TX"],
      transferHours: "9am-5pm",
      callsPerDay: 3,
    });
    expect(settings).toEqual({
      transferPhone: "5559990000",
      states: ["CA", "TX"],
      hoursStartMinute: 540,
      hoursEndMinute: 1020,
      timeZone: "America/Los_Angeles",
      perDayCap: 3,
      days: null,
      closedFrom: null,
      closedUntil: null,
      perHourCap: null,
      maxConcurrent: null,
    });
    expect(isDeliveryComplete(settings)).toBe(true);
  });

  it("leaves what a form did not say null, so the order awaits setup", () => {
    const survey = deliverySettingsFromDetails({ leadType: "Live Transfers", transferHours: "9-5", callsPerDay: 5 });
    expect(survey).toMatchObject({ transferPhone: null, states: [], timeZone: null, perDayCap: 5 });
    expect(isDeliveryComplete(survey)).toBe(false);
    const pkg = deliverySettingsFromDetails({ callCount: 10 });
    expect(isDeliveryComplete(pkg)).toBe(false);
    expect(deliverySettingsFromDetails({ transferHours: "whenever", callsPerDay: 0 })).toMatchObject({
      hoursStartMinute: null,
      perDayCap: null,
    });
  });

  it("reads state names as codes and keeps unknown words (which match no caller)", () => {
    expect(statesFromText("texas, fl ,New York")).toEqual(["TX", "FL", "NY"]);
    expect(statesFromText("Atlantis")).toEqual(["ATLANTIS"]);
  });
});

/** The form's fields for an order without limits of its own (docs/decisions/0068). */
const NO_LIMITS_INPUT = { days: [], closedFrom: "", closedUntil: "", perHourCap: "", maxConcurrent: "" };

describe("deliverySettingsInputSchema", () => {
  const valid = SAMPLE_DELIVERY_SETTINGS;

  it("round-trips through the stored settings", () => {
    const parsed = deliverySettingsInputSchema.parse(valid);
    const settings = settingsFromInput(parsed);
    expect(settings).toMatchObject({ transferPhone: "5552223333", states: ["GA", "FL"], hoursStartMinute: 510 });
    expect(inputFromSettings(settings)).toEqual({
      ...valid,
      transferPhone: "5552223333",
      states: "GA, FL",
      ...NO_LIMITS_INPUT,
    });
  });

  it("refuses unknown states, bad phones, clocks, zones and caps", () => {
    for (const bad of [
      { transferPhone: "12345" },
      { states: "TX, Atlantis" },
      { hoursEnd: "24:00" },
      { timeZone: "Europe/Paris" },
      { perDayCap: "0" },
      { perDayCap: "2.5" },
    ]) {
      expect(deliverySettingsInputSchema.safeParse({ ...valid, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(deliverySettingsInputSchema.parse({ ...valid, states: [] }).states).toEqual([]);
  });
});

describe("payPerTransferCents", () => {
  it("reads the first amount of the application's text in cents", () => {
    expect(payPerTransferCents("$20")).toBe(2000);
    expect(payPerTransferCents("25.50 per call")).toBe(2550);
    expect(payPerTransferCents("$1,000")).toBe(100000);
    expect(payPerTransferCents("negotiable")).toBeNull();
    expect(payPerTransferCents("$0")).toBeNull();
  });
});

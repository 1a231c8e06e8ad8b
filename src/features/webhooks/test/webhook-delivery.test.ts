/**
 * Buyer webhooks (decision 0037): the retry schedule under a fake clock, the dead
 * letter, switching a failing endpoint off, and the order of deliveries per subject.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AnyWebhookEventType,
  answerExcerpt,
  bodyTooLarge,
  isDeliveredStatus,
  newWebhookEventId,
  WEBHOOK_EVENT_ID_PATTERN,
  WEBHOOK_MAX_BODY_BYTES,
  WEBHOOK_RETRY_WINDOW_MS,
  webhookEventIdFor,
  webhookSubject,
} from "../../webhook-outbox/events";
import {
  afterFailedAttempt,
  compareDeliveries,
  type DeliveryStatus,
  type EndpointHealth,
  endpointHealthAfter,
  isFinalDeliveryStatus,
  nominalRetryDelayMs,
  nominalRetrySchedule,
  type OrderedDelivery,
  RETRY_MAX_DELAY_MS,
  retryDelayMs,
  waitsFor,
} from "../delivery";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A draw in [0, 1), as Math.random gives. */
const draw = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe("retry schedule: exponential back-off with jitter for 3 days", () => {
  it("doubles from one minute up to a six-hour cap", () => {
    expect([1, 2, 3, 4, 5].map(nominalRetryDelayMs)).toEqual([1, 2, 4, 8, 16].map((m) => m * MINUTE));
    expect(nominalRetryDelayMs(9)).toBe(256 * MINUTE);
    expect(nominalRetryDelayMs(10)).toBe(RETRY_MAX_DELAY_MS);
    expect(nominalRetryDelayMs(1000)).toBe(RETRY_MAX_DELAY_MS);
    expect(() => nominalRetryDelayMs(0)).toThrow(RangeError);
    expect(() => nominalRetryDelayMs(1.5)).toThrow(RangeError);
  });

  it("moves each delay by at most 25% either way, drawn from the injected random source", () => {
    expect(retryDelayMs(3, () => 0)).toBe(3 * MINUTE);
    expect(retryDelayMs(3, () => 0.5)).toBe(4 * MINUTE);
    expect(retryDelayMs(3, () => 0.999_999)).toBe(Math.round(4 * MINUTE * (0.75 + 0.5 * 0.999_999)));
    fc.assert(
      fc.property(draw, (r) => {
        const delay = retryDelayMs(4, () => r);
        expect(delay).toBeGreaterThanOrEqual(6 * MINUTE);
        expect(delay).toBeLessThanOrEqual(10 * MINUTE);
      }),
    );
    expect(() => retryDelayMs(1, () => 1)).toThrow(RangeError);
    expect(() => retryDelayMs(1, () => Number.NaN)).toThrow(RangeError);
  });

  it("under a fake clock, retries an always-failing event until exactly 3 days, then dead-letters it", () => {
    fc.assert(
      fc.property(fc.array(draw, { minLength: 40, maxLength: 40 }), (draws) => {
        let next = 0;
        const random = () => draws[next++ % draws.length] ?? 0.5;
        const firstAttemptAt = Date.UTC(2026, 10, 24, 12);
        const attempts = [firstAttemptAt];
        let decision = afterFailedAttempt({ failedAttempts: 1, firstAttemptAt, now: firstAttemptAt }, random);
        while (decision.action === "retry") {
          const last = attempts.at(-1) ?? 0;
          expect(decision.at).toBe(last + decision.delayMs);
          expect(decision.delaySeconds).toBe(Math.ceil(decision.delayMs / 1000));
          attempts.push(decision.at);
          decision = afterFailedAttempt({ failedAttempts: attempts.length, firstAttemptAt, now: decision.at }, random);
        }
        expect(decision).toEqual({ action: "dead_letter" });
        expect(attempts.at(-1)).toBe(firstAttemptAt + WEBHOOK_RETRY_WINDOW_MS);
        expect(attempts.length).toBeGreaterThanOrEqual(18);
        expect(attempts.length).toBeLessThanOrEqual(25);
        const gaps = attempts.slice(1).map((at, i) => at - (attempts[i] ?? 0));
        expect(gaps[0]).toBeGreaterThanOrEqual(0.75 * MINUTE);
        expect(gaps[0]).toBeLessThanOrEqual(1.25 * MINUTE);
        expect(Math.max(...gaps)).toBeLessThanOrEqual(1.25 * RETRY_MAX_DELAY_MS);
      }),
      { numRuns: 200 },
    );
  });

  it("dead-letters a failure at or after the window's end, and never schedules past it", () => {
    const firstAttemptAt = 1_000_000;
    const end = firstAttemptAt + 3 * DAY;
    expect(afterFailedAttempt({ failedAttempts: 20, firstAttemptAt, now: end }, () => 0.5)).toEqual({
      action: "dead_letter",
    });
    expect(afterFailedAttempt({ failedAttempts: 20, firstAttemptAt, now: end + 1 }, () => 0.5).action).toBe(
      "dead_letter",
    );
    expect(afterFailedAttempt({ failedAttempts: 20, firstAttemptAt, now: end - MINUTE }, () => 0.9)).toEqual({
      action: "retry",
      at: end,
      delayMs: MINUTE,
      delaySeconds: 60,
    });
  });

  it("the nominal schedule runs from 0 to exactly 3 days", () => {
    const schedule = nominalRetrySchedule();
    expect(schedule[0]).toBe(0);
    expect(schedule.slice(1, 5)).toEqual([1, 3, 7, 15].map((m) => m * MINUTE));
    expect(schedule.at(-1)).toBe(3 * DAY);
    expect(schedule.length).toBe(21);
  });
});

describe("an endpoint that failed for 3 days in a row is switched off", () => {
  const start = Date.UTC(2026, 10, 1);

  it("switches off at the failure 3 days after the first one, not before", () => {
    let health: EndpointHealth = { failingSince: null };
    let switchedOffAt: number | null = null;
    for (const at of nominalRetrySchedule().map((offset) => start + offset)) {
      const next = endpointHealthAfter(health, { delivered: false, at });
      if (next.switchOff && switchedOffAt === null) switchedOffAt = at;
      health = next;
    }
    expect(health.failingSince).toBe(start);
    expect(switchedOffAt).toBe(start + 3 * DAY);
    expect(endpointHealthAfter({ failingSince: start }, { delivered: false, at: start + 3 * DAY - 1 }).switchOff).toBe(
      false,
    );
  });

  it("any 2xx clears the streak, so failures on either side of it do not add up", () => {
    let health = endpointHealthAfter({ failingSince: null }, { delivered: false, at: start });
    health = endpointHealthAfter(health, { delivered: false, at: start + 2 * DAY });
    health = endpointHealthAfter(health, { delivered: true, at: start + 2 * DAY + HOUR });
    expect(health).toEqual({ failingSince: null, switchOff: false });
    health = endpointHealthAfter(health, { delivered: false, at: start + 4 * DAY });
    expect(health).toEqual({ failingSince: start + 4 * DAY, switchOff: false });
    expect(endpointHealthAfter(health, { delivered: false, at: start + 5 * DAY }).switchOff).toBe(false);
    expect(endpointHealthAfter(health, { delivered: false, at: start + 7 * DAY }).switchOff).toBe(true);
  });
});

describe("delivery outcome and log helpers", () => {
  it("counts 2xx only as delivered (a redirect is not followed)", () => {
    expect([200, 201, 204, 299].every(isDeliveredStatus)).toBe(true);
    expect([0, 199, 301, 302, 400, 410, 500, 503].some(isDeliveredStatus)).toBe(false);
  });

  it("keeps the first 1 KB of an answer without cutting a character in half", () => {
    expect(answerExcerpt("ok")).toBe("ok");
    expect(answerExcerpt("a".repeat(5000))).toBe("a".repeat(1024));
    const euros = answerExcerpt(`a${"€".repeat(1000)}`); // 1 + 3 bytes each: 1024 falls inside a €
    expect(new TextEncoder().encode(euros).length).toBe(1 + 3 * 341);
    expect(euros.endsWith("€")).toBe(true);
    expect(answerExcerpt(new Uint8Array([0x68, 0x69, 0xff]))).toBe("hi\ufffd");
  });

  it("measures the body limit in bytes", () => {
    expect(bodyTooLarge("x".repeat(WEBHOOK_MAX_BODY_BYTES))).toBe(false);
    expect(bodyTooLarge("x".repeat(WEBHOOK_MAX_BODY_BYTES + 1))).toBe(true);
    expect(bodyTooLarge("é".repeat(WEBHOOK_MAX_BODY_BYTES / 2 + 1))).toBe(true);
  });

  it("gives one fact the same event id every time, and different facts different ids", async () => {
    const id = await webhookEventIdFor("lead.purchased", "ord_1", "lead_1");
    expect(id).toMatch(WEBHOOK_EVENT_ID_PATTERN);
    expect(await webhookEventIdFor("lead.purchased", "ord_1", "lead_1")).toBe(id);
    expect(await webhookEventIdFor("lead.purchased", "ord_1", "lead_2")).not.toBe(id);
    expect(await webhookEventIdFor("lead.purchased", "ord_1l", "ead_1")).not.toBe(id);
    expect(await webhookEventIdFor("transfer.routed", "ord_1", "lead_1")).not.toBe(id);
    expect(newWebhookEventId()).toMatch(WEBHOOK_EVENT_ID_PATTERN);
    expect(newWebhookEventId()).not.toBe(newWebhookEventId());
  });
});

describe("order per subject", () => {
  const delivery = (
    eventId: string,
    type: AnyWebhookEventType,
    createdAt: number,
    status: DeliveryStatus = "pending",
    subject = webhookSubject(type, "t1"),
  ): OrderedDelivery => ({ eventId, type, subject, createdAt, status });

  it("holds a transfer's billable back while its routed is pending or retrying", () => {
    const routed = delivery("evt_a", "transfer.routed", 1000, "retrying");
    const billable = delivery("evt_b", "transfer.billable", 2000);
    expect(waitsFor(billable, [routed, billable])).toBe(routed);
    expect(waitsFor(routed, [routed, billable])).toBeNull();
    expect(waitsFor(billable, [{ ...routed, status: "delivered" }, billable])).toBeNull();
    // A dead routed does not block the subject for good.
    expect(waitsFor(billable, [{ ...routed, status: "dead_letter" }, billable])).toBeNull();
  });

  it("orders same-time events by their natural order, and ignores other subjects", () => {
    const routed = delivery("evt_z", "transfer.routed", 1000);
    const connected = delivery("evt_y", "transfer.connected", 1000);
    const billable = delivery("evt_x", "transfer.billable", 1000);
    expect(waitsFor(billable, [billable, connected, routed])).toBe(routed);
    expect(waitsFor(connected, [billable, connected, routed])).toBe(routed);
    const other = delivery("evt_o", "transfer.routed", 1, "retrying", webhookSubject("transfer.routed", "t2"));
    expect(waitsFor(routed, [other, routed])).toBeNull();
  });

  it("property: whatever the outcomes and the order tried, events of a subject are sent in order and never stall", () => {
    const TYPES: AnyWebhookEventType[] = ["transfer.routed", "transfer.connected", "transfer.billable"];
    const events = fc.array(
      fc.record({ subject: fc.integer({ min: 0, max: 3 }), gap: fc.integer({ min: 0, max: 2 }) }),
      {
        minLength: 1,
        maxLength: 25,
      },
    );
    const steps = fc.array(
      fc.tuple(fc.nat(), fc.constantFrom("delivered", "retrying", "dead_letter") as fc.Arbitrary<DeliveryStatus>),
      {
        maxLength: 120,
      },
    );
    fc.assert(
      fc.property(events, steps, (specs, choices) => {
        const perSubject = new Map<number, number>();
        let time = 0;
        const deliveries = specs.map((spec, i) => {
          time += spec.gap;
          const n = perSubject.get(spec.subject) ?? 0;
          perSubject.set(spec.subject, n + 1);
          const type = TYPES[Math.min(n, 2)] as AnyWebhookEventType;
          return delivery(`evt_${String(i).padStart(3, "0")}`, type, time, "pending", `transfer:${spec.subject}`);
        });
        const sent: OrderedDelivery[] = [];
        for (const [pick, outcome] of choices) {
          const open = deliveries.filter((d) => !isFinalDeliveryStatus(d.status));
          const ready = open.filter((d) => waitsFor(d, deliveries) === null);
          if (open.length > 0) expect(ready.length).toBeGreaterThan(0);
          const chosen = ready[pick % Math.max(ready.length, 1)];
          if (!chosen) break;
          // Every earlier event of the subject is settled before a later one is attempted.
          for (const other of deliveries) {
            if (other.subject === chosen.subject && compareDeliveries(other, chosen) < 0) {
              expect(isFinalDeliveryStatus(other.status)).toBe(true);
            }
          }
          chosen.status = outcome;
          if (outcome === "delivered") sent.push({ ...chosen });
        }
        for (const subject of new Set(sent.map((d) => d.subject))) {
          const order = sent.filter((d) => d.subject === subject);
          const sorted = [...order].sort(compareDeliveries);
          expect(order.map((d) => d.eventId)).toEqual(sorted.map((d) => d.eventId));
        }
      }),
      { numRuns: 300 },
    );
  });
});

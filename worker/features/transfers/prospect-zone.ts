/**
 * The prospect's time zone (docs/decisions/0064): from the ZIP code when it is known, else from the phone's
 * area code (→ its state), else from the state. A state (or an area code, whose state is all the data
 * knows) may span several zones: every one is a candidate, and the calling rules allow a moment only when
 * it is allowed in each (worker/features/transfers/calling-window.ts). Server-only: the ZIP and area-code tables
 * (zipcode-to-timezone, areacodes) weigh about a megabyte, so no island may import this.
 */
import areaCodes from "areacodes/lib/data.json" with { type: "json" };
import { lookup as zipTimeZone } from "zipcode-to-timezone";
import { defaultTimeZone } from "../../../src/domain/time-zones";
import { US_STATE_CODES, type UsStateCode } from "../../../src/domain/us-states";

/** States whose land lies in more than one zone: every zone a prospect there may be in (IANA names). */
const STATE_ZONES: Partial<Record<UsStateCode, readonly string[]>> = {
  AK: ["America/Anchorage", "America/Adak"],
  AZ: ["America/Phoenix", "America/Denver"],
  FL: ["America/New_York", "America/Chicago"],
  ID: ["America/Boise", "America/Los_Angeles"],
  IN: ["America/Indiana/Indianapolis", "America/Chicago"],
  KS: ["America/Chicago", "America/Denver"],
  KY: ["America/New_York", "America/Chicago"],
  MI: ["America/Detroit", "America/Menominee"],
  ND: ["America/Chicago", "America/Denver"],
  NE: ["America/Chicago", "America/Denver"],
  NV: ["America/Los_Angeles", "America/Denver"],
  OR: ["America/Los_Angeles", "America/Boise"],
  SD: ["America/Chicago", "America/Denver"],
  TN: ["America/Chicago", "America/New_York"],
  TX: ["America/Chicago", "America/Denver"],
};

/** Every zone a prospect of `state` may be in, its main zone first. */
function stateTimeZones(state: string): readonly string[] {
  return STATE_ZONES[state as UsStateCode] ?? [defaultTimeZone(state)];
}

const STATES = new Set<string>(US_STATE_CODES);
const AREA_CODES = areaCodes as Record<string, { stateCode?: string | null }>;

/** The US state of a ten-digit number's area code, or null (unknown, Canadian or not geographic). */
export function areaCodeState(phone: string | null | undefined): string | null {
  const code =
    phone
      ?.replace(/\D/g, "")
      .replace(/^1(?=\d{10}$)/, "")
      .slice(0, 3) ?? "";
  const state = AREA_CODES[code]?.stateCode;
  return state && STATES.has(state) ? state : null;
}

/** The zone of a five-digit ZIP code (a ZIP+4 is read by its first five), or null. */
export function zipZone(zip: string | null | undefined): string | null {
  const five = zip?.trim().slice(0, 5) ?? "";
  return /^\d{5}$/.test(five) ? zipTimeZone(five) : null;
}

export interface ProspectPlace {
  state: string;
  phone?: string | null | undefined;
  zip?: string | null | undefined;
  /** A zone the caller sent explicitly (a call-back's `prospect.timeZone`): it wins. */
  timeZone?: string | null | undefined;
}

export interface ProspectZones {
  /** Every zone the prospect may be in: one when known from the ZIP (or given), several when a state spans them. */
  zones: readonly string[];
  /** The states whose rules apply: the prospect's state and its number's area-code state. */
  states: readonly string[];
  /** Where the zones came from. */
  from: "given" | "zip" | "area_code" | "state";
}

/** What a place's phone and ZIP say: the area code's state and the ZIP's zone (two table lookups). */
export interface PlaceLookups {
  areaState: string | null;
  zip: string | null;
}

/** The area code's state and the ZIP's zone of a place, read once so callers can share them. */
export const placeLookups = (place: ProspectPlace): PlaceLookups => ({
  areaState: areaCodeState(place.phone),
  zip: zipZone(place.zip),
});

/**
 * The prospect's candidate zones and the states whose calling rules apply to them. A zone sent with the
 * prospect, else the ZIP's, narrows the state's zones only when it is one of them (a ZIP or zone of another
 * state is not believed: it cannot move a New Yorker to Honolulu's clock); a number whose area code is in
 * another state adds that state's zones. A moment is allowed only when every candidate allows it.
 * `lookups`: the place's own, when the caller has read them already.
 */
export function prospectZones(place: ProspectPlace, lookups: PlaceLookups = placeLookups(place)): ProspectZones {
  const { areaState, zip } = lookups;
  const states = areaState && areaState !== place.state ? [place.state, areaState] : [place.state];
  const stateZones = stateTimeZones(place.state);
  const given = place.timeZone && stateZones.includes(place.timeZone) ? place.timeZone : null;
  const narrowed = given ?? (zip && stateZones.includes(zip) ? zip : null);
  const zones = new Set(narrowed ? [narrowed] : stateZones);
  if (areaState && areaState !== place.state) for (const zone of stateTimeZones(areaState)) zones.add(zone);
  const from = given ? "given" : narrowed ? "zip" : areaState && areaState !== place.state ? "area_code" : "state";
  return { zones: [...zones], states, from };
}

/**
 * One zone for the prospect, the one a call-back's window is read in: the zone sent, else the ZIP's, else
 * the area code's state's, else the state's (whether the calling rules allow a moment is `prospectZones`).
 * `lookups`: the place's own, when the caller has read them already.
 */
export function prospectTimeZone(place: ProspectPlace, lookups?: PlaceLookups): string {
  if (place.timeZone) return place.timeZone;
  const zip = lookups ? lookups.zip : zipZone(place.zip);
  if (zip) return zip;
  const areaState = lookups ? lookups.areaState : areaCodeState(place.phone);
  return stateTimeZones(areaState ?? place.state)[0] ?? defaultTimeZone(place.state);
}

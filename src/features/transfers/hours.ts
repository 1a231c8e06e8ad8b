/** Transfer hours: local minutes of the day, as buyers type them and as routing checks them. Pure: no I/O. */

/** Whether a local minute of the day falls in [start, end); end before start spans midnight; start = end is all day. */
export function withinHours(minute: number, start: number, end: number): boolean {
  if (start === end) return true;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

const TIME = /^(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?$/i;

function parseTime(text: string): { minute: number; meridiem: boolean } | null {
  const match = TIME.exec(text.trim());
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2] ?? 0);
  const meridiem = match[3]?.[0]?.toLowerCase();
  if (minute > 59 || hour > 24 || (meridiem && (hour < 1 || hour > 12))) return null;
  if (meridiem === "a" && hour === 12) hour = 0;
  if (meridiem === "p" && hour < 12) hour += 12;
  if (hour === 24 && minute > 0) return null;
  return { minute: (hour % 24) * 60 + minute, meridiem: Boolean(meridiem) };
}

/**
 * Reads transfer hours as buyers type them: "9am-5pm", "9:00 AM – 5:00 PM", "09:00-17:00", "9 to 5"
 * (a bare end hour before the start is read as PM). Answers minutes since local midnight, or null.
 */
export function parseTransferHours(text: string): { startMinute: number; endMinute: number } | null {
  const halves = text.split(/\s*(?:-|–|—|to)\s*/i).filter(Boolean);
  if (halves.length !== 2) return null;
  const start = parseTime(halves[0] ?? "");
  const end = parseTime(halves[1] ?? "");
  if (!start || !end) return null;
  let endMinute = end.minute;
  if (!end.meridiem && !start.meridiem && endMinute < start.minute && endMinute < 12 * 60) endMinute += 12 * 60;
  return { startMinute: start.minute, endMinute };
}

/** "9:00 AM" for a minute of the day. */
export function formatMinute(minute: number): string {
  const hour = Math.floor(minute / 60) % 24;
  return `${hour % 12 || 12}:${String(minute % 60).padStart(2, "0")} ${hour < 12 ? "AM" : "PM"}`;
}

/** A lead's calling status as the server worded it (docs/decisions/0070): the line and the prospect's zone. */
import type { Callable } from "../domain/callable";

export function CallableText({ callable }: { callable: Callable }) {
  return (
    <span className="whitespace-nowrap">
      <span className={callable.now ? "font-medium text-green-900" : "text-ink-soft"}>{callable.label}</span>
      <span className="block text-xs text-ink-soft">{callable.timeZone}</span>
    </span>
  );
}

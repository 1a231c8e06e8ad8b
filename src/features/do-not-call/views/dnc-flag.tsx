import { suppressedAfterPurchaseLabel } from "../suppression";

/**
 * A purchased number that reached a Do Not Call list after the purchase: the buyer
 * stops calling it, so it is shown without a call link and flagged.
 */
export function PhoneWithDncFlag({ phone, suppressedOn }: { phone: string; suppressedOn: string | null }) {
  if (!suppressedOn) {
    return (
      <a className="text-brand-700 underline" href={`tel:${phone}`}>
        {phone}
      </a>
    );
  }
  return (
    <span className="flex flex-col items-start gap-1">
      <span className="text-ink-soft line-through">{phone}</span>
      <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900" data-testid="dnc-flag">
        {suppressedAfterPurchaseLabel(suppressedOn)}
      </span>
    </span>
  );
}

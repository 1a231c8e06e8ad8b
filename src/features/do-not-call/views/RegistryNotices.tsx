/**
 * The Do Not Call registry's notices (docs/decisions/0085), rendered on the server with no JavaScript: the
 * admins' banner on every admin page from day 25 of a copy, and the marketplace's reason while a stale copy
 * stops sales. The words are src/features/do-not-call/list-freshness.ts.
 */
import type { RegistryPageNotices } from "../list-freshness";

const BOX = "mb-6 rounded-xl border p-4 text-sm";
const WARNING = "border-amber-300 bg-amber-50 text-amber-950";
const STOPPED = "border-red-200 bg-red-50 text-red-900";

/** The admins' banner: each copy's line, stopped ones first. */
export function RegistryBanner({ banner }: { banner: RegistryPageNotices["banner"] }) {
  if (!banner) return null;
  return (
    <section
      aria-label="Do Not Call registry"
      data-testid="registry-banner"
      className={`${BOX} ${banner.stale ? STOPPED : WARNING}`}
    >
      <p className="font-semibold">
        {banner.stale ? "Sales stopped: a Do Not Call registry copy is stale" : "Do Not Call registry copy"}
      </p>
      <ul className="mt-1 list-disc pl-5">
        {banner.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <p className="mt-2">
        <a className="font-medium underline" href="/admin/do-not-call">
          Upload a fresh copy
        </a>
      </p>
    </section>
  );
}

/** The marketplace's reason why covered leads can't be bought now. */
export function MarketplaceRegistryStop({ notice }: { notice: string | null }) {
  if (!notice) return null;
  return (
    <p data-testid="registry-stop" className={`${BOX} ${STOPPED}`}>
      {notice}
    </p>
  );
}

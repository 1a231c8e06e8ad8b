/** A list of benefits or inclusions, each with a check mark. */
export function CheckList({ items, className = "" }: { items: readonly string[]; className?: string }) {
  return (
    <ul className={`space-y-2 text-ink-soft ${className}`}>
      {items.map((item) => (
        <li key={item} className="flex gap-2">
          <span aria-hidden="true" className="text-brand-600">
            ✓
          </span>
          {item}
        </li>
      ))}
    </ul>
  );
}

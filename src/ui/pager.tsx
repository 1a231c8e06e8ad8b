import { MAX_PAGE_BUTTONS } from "../domain/dashboard";
import { Button } from "./button";

/** Up to five page numbers around the current page. */
function pageWindow(page: number, pageCount: number): number[] {
  const start = Math.max(1, Math.min(page - Math.floor(MAX_PAGE_BUTTONS / 2), pageCount - MAX_PAGE_BUTTONS + 1));
  return Array.from({ length: Math.min(MAX_PAGE_BUTTONS, pageCount) }, (_, i) => start + i);
}

interface PagerProps {
  label: string;
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}

/** Previous, up to five page numbers and Next, for a list paged on the server; nothing for one page. */
export function Pager({ label, page, pageCount, onPage }: PagerProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-center gap-2">
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      {pageWindow(page, pageCount).map((n) => (
        <Button
          key={n}
          variant={n === page ? "primary" : "secondary"}
          aria-current={n === page ? "page" : undefined}
          onClick={() => onPage(n)}
        >
          {n}
        </Button>
      ))}
      <Button variant="secondary" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

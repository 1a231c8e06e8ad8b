import { Button } from "./button";

/** A failed step's reason, in the server's words, and the way on: 'Try again'. Announced when it appears. */
export function RetryNotice({
  message,
  onRetry,
  busy = false,
}: {
  message: string;
  onRetry: () => void;
  busy?: boolean;
}) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-900">
      <p>{message}</p>
      <Button variant="secondary" className="mt-3" busy={busy} onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/** The portal's notice while an admin has the partner suspended: its API keys answer 403. */
import { site } from "../../../config/site";
import { formatDate } from "../../../domain/format";

export function SuspendedNotice({ since }: { since: number }) {
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-900">
      <p className="font-semibold">Your partner account is suspended (since {formatDate(since)}).</p>
      <p className="mt-1 text-sm">
        The partner API refuses your API keys with 403 until we reinstate the account: no calls are routed to you
        meanwhile. Contact{" "}
        <a href={`mailto:${site.supportEmail}`} className="underline">
          {site.supportEmail}
        </a>{" "}
        to find out why.
      </p>
    </div>
  );
}

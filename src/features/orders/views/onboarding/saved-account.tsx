/** What the wizards show and check once their first save has created the buyer's account (decision 0017). */
import type { RefObject } from "react";
import type { FieldValues, Resolver } from "react-hook-form";

/**
 * Step 1's resolver: the whole account until it is saved, then only the profile (the username, e-mail and
 * password belong to the account that exists and are no longer asked).
 */
export function accountResolver<Values extends FieldValues>(
  saved: RefObject<unknown>,
  account: Resolver<Values>,
  profile: Resolver<Values>,
): Resolver<Values> {
  return (values, context, options) => (saved.current ? profile : account)(values, context, options);
}

/** Step 1 after the first save: the account is made, so its username and e-mail are shown, not asked. */
export function SavedAccountNote({ username, email }: { username: string; email: string }) {
  return (
    <p className="rounded-lg bg-brand-50 px-4 py-3 text-sm text-ink" data-testid="saved-account">
      Your account <strong>{username}</strong> ({email}) is created and you are signed in. Changes you make here update
      your saved survey.
    </p>
  );
}

/** A saved survey could not be resumed: why, and the way to log in and come back to it. */
export function ResumeError({ message, next }: { message: string; next: string }) {
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-red-900">
      {message}{" "}
      <a className="font-semibold underline" href={`/login?next=${encodeURIComponent(next)}`}>
        Log in
      </a>
    </p>
  );
}

/**
 * Domain errors: services throw these (never HTTP codes); the API's one `onError` maps each to its
 * status and a `{ message }` a person can read (worker/api.ts).
 */
export class DomainError extends Error {
  /** Extra fields sent beside `message` (e.g. the taken leads of a conflict). */
  readonly details: Record<string, unknown> | undefined;
  constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/** 400: the input breaks a rule. */
export class InvalidError extends DomainError {}
/** 401: nobody is signed in (or the credential is unknown or revoked). */
export class UnauthenticatedError extends DomainError {}
/** 402: the card was declined. */
export class PaymentDeclinedError extends DomainError {}
/** 403: signed in, but not allowed. */
export class ForbiddenError extends DomainError {}
/** 404: no such thing, or not the caller's to see. */
export class NotFoundError extends DomainError {}
/** 409: the state of things does not allow it (already taken, sold, decided…). */
export class ConflictError extends DomainError {}
/** 429: too many requests. */
export class RateLimitedError extends DomainError {}
/** 503: payments cannot be taken (the provider is not configured). */
export class PaymentsUnavailableError extends DomainError {}
/** 503: a feature cannot run with this deployment's configuration (e.g. webhooks without their key). */
export class UnavailableError extends DomainError {}

const DOMAIN_ERROR_STATUS = [
  [InvalidError, 400],
  [UnauthenticatedError, 401],
  [PaymentDeclinedError, 402],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [RateLimitedError, 429],
  [PaymentsUnavailableError, 503],
  [UnavailableError, 503],
] as const;

export function domainErrorStatus(error: DomainError): 400 | 401 | 402 | 403 | 404 | 409 | 429 | 503 {
  for (const [type, status] of DOMAIN_ERROR_STATUS) if (error instanceof type) return status;
  return 400;
}

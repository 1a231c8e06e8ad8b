/**
 * Accounts (product rule 42): `createUser` is the one way an account is made (the surveys, a partner's approval, a
 * delivery-setup link): unique username and e-mail, the password rule (product rule 29), a hashed password, and
 * whatever belongs with the account written in the same transaction. Also the survey records.
 */
import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { AccountType } from "../../../src/domain/account-types";
import type { SavedSurvey } from "../../../src/domain/schemas/survey";
import type { SurveyKind } from "../../../src/domain/survey";
import type { Database } from "../../db/client";
import { surveyResponses, users } from "../../db/schema";
import type { Deps } from "../../deps";
import { ConflictError, type DomainError, NotFoundError } from "../../errors";
import { assertNewPasswordAllowed } from "./password-policy";
import { hashPassword } from "./passwords";

/** The profile a repeat survey save may change; the account's username, e-mail and password stay. */
export interface BuyerProfile {
  firstName: string;
  lastName: string;
  phone: string;
  agencyName: string;
  role: string;
  state?: string;
}

interface NewAccount extends Partial<BuyerProfile> {
  /** Given when something made before the account must name it (a partner's invitation link). */
  id?: string;
  username: string;
  email: string;
  /** null: no usable password yet (a partner's, until the invitation sets one). */
  password: string | null;
  accountType?: AccountType;
}

type AccountConflict = { field: "username" | "email"; message: string };

const CONFLICTS: Record<AccountConflict["field"], string> = {
  username: "Username is already taken",
  email: "An account with this email already exists",
};

/** Never matches a password (verifyPassword refuses unknown schemes). */
const NO_PASSWORD_YET = "!invited";

/** True while the account has no usable password (a partner who has not accepted the invitation). */
export const awaitsPassword = (user: { passwordHash: string }) => user.passwordHash === NO_PASSWORD_YET;

async function findAccountConflict(db: Database, username: string, email: string): Promise<AccountConflict | null> {
  const row = await db
    .select({ usernameTaken: sql<number>`lower(${users.username}) = lower(${username})` })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${username}) OR lower(${users.email}) = lower(${email})`)
    .limit(1)
    .get();
  if (!row) return null;
  const field = row.usernameTaken ? "username" : "email";
  return { field, message: CONFLICTS[field] };
}

interface CreateUserOptions {
  /** Statements written in the same transaction as the account (they may refer to its id). */
  alongside?: (userId: string) => BatchItem<"sqlite">[];
  /** The form's name for a field (e.g. `account.username`): errors are reported under it. */
  fieldName?: (field: "username" | "email" | "password") => string;
  /** The error for a taken username or e-mail (default: ConflictError with the message under the field). */
  conflictError?: (conflict: AccountConflict) => DomainError;
}

/**
 * Creates the account (and `alongside`) in one transaction and answers its id. InvalidError when the
 * password breaks the rule; the conflict error when the username or e-mail is taken, also when a
 * concurrent sign-up wins the race.
 */
export async function createUser(deps: Deps, account: NewAccount, options: CreateUserOptions = {}): Promise<string> {
  const { db } = deps;
  const fieldName = options.fieldName ?? ((field) => field);
  const conflictError =
    options.conflictError ??
    (({ field, message }: AccountConflict) => new ConflictError(message, { errors: { [fieldName(field)]: message } }));
  if (account.password !== null) assertNewPasswordAllowed(account.password, fieldName("password"));
  const conflict = await findAccountConflict(db, account.username, account.email);
  if (conflict) throw conflictError(conflict);
  const id = account.id ?? crypto.randomUUID();
  // Field by field: a form's other answers never reach the account (is_admin is never set here).
  const insert = db.insert(users).values({
    id,
    username: account.username,
    email: account.email,
    passwordHash: account.password === null ? NO_PASSWORD_YET : await hashPassword(account.password),
    firstName: account.firstName ?? "",
    lastName: account.lastName ?? "",
    phone: account.phone ?? "",
    agencyName: account.agencyName ?? "",
    role: account.role ?? "Insurance Agent",
    state: account.state ?? null,
    accountType: account.accountType ?? "buyer",
  });
  try {
    await db.batch([insert, ...(options.alongside?.(id) ?? [])]);
  } catch (error) {
    // Lost a race with another sign-up for the same name or address.
    const raced = await findAccountConflict(db, account.username, account.email);
    if (raced) throw conflictError(raced);
    throw error;
  }
  return id;
}

/** Creates the account and the survey record in one transaction; Conflict when the username or e-mail is taken. */
export async function createBuyerWithSurvey(
  deps: Deps,
  buyer: BuyerProfile & { username: string; password: string; email: string },
  survey: { kind: SurveyKind; answers: Record<string, unknown> },
): Promise<{ userId: string; surveyId: string }> {
  const { db } = deps;
  const surveyId = crypto.randomUUID();
  const userId = await createUser(deps, buyer, {
    alongside: (id) => [
      db.insert(surveyResponses).values({ id: surveyId, userId: id, kind: survey.kind, answers: survey.answers }),
    ],
  });
  return { userId, surveyId };
}

/** The saved wizard a payment completes, with its account's id and e-mail; null when unknown. */
export async function findSurvey(deps: Deps, surveyId: string) {
  const [survey] = await deps.db
    .select({
      kind: surveyResponses.kind,
      answers: surveyResponses.answers,
      userId: surveyResponses.userId,
      email: users.email,
    })
    .from(surveyResponses)
    .innerJoin(users, eq(users.id, surveyResponses.userId))
    .where(eq(surveyResponses.id, surveyId));
  return survey ?? null;
}

const SURVEY_NOT_FOUND = "We could not find your saved survey. Please start the survey again.";

/** The survey if it is this account's and of this kind; otherwise NotFoundError (never another buyer's). */
export async function findOwnSurvey(
  deps: Deps,
  userId: string,
  surveyId: string,
  kind?: SavedSurvey["kind"],
): Promise<SavedSurvey> {
  const [row] = await deps.db
    .select({
      surveyId: surveyResponses.id,
      kind: surveyResponses.kind,
      answers: surveyResponses.answers,
      username: users.username,
      email: users.email,
    })
    .from(surveyResponses)
    .innerJoin(users, eq(users.id, surveyResponses.userId))
    .where(and(eq(surveyResponses.id, surveyId), eq(surveyResponses.userId, userId)))
    .limit(1);
  if (!row || (kind && row.kind !== kind)) throw new NotFoundError(SURVEY_NOT_FOUND);
  return row;
}

/** A repeat save from the account that created the survey: the latest answers and profile replace the old. */
export async function updateBuyerSurvey(
  deps: Deps,
  userId: string,
  surveyId: string,
  profile: BuyerProfile,
  survey: { kind: SavedSurvey["kind"]; answers: Record<string, unknown> },
): Promise<void> {
  const saved = await findOwnSurvey(deps, userId, surveyId, survey.kind);
  const answers = { username: saved.username, email: saved.email, ...survey.answers };
  const { db } = deps;
  await db.batch([
    db
      .update(users)
      .set({
        firstName: profile.firstName,
        lastName: profile.lastName,
        phone: profile.phone,
        agencyName: profile.agencyName,
        role: profile.role,
        ...(profile.state ? { state: profile.state } : {}),
      })
      .where(eq(users.id, userId)),
    db.update(surveyResponses).set({ answers }).where(eq(surveyResponses.id, surveyId)),
  ]);
}

/** Buyer accounts created by the survey wizards (D4): unique username and e-mail, hashed password. */
import { and, eq } from "drizzle-orm";
import type { SavedSurvey } from "../../src/domain/schemas/survey";
import type { SurveyKind } from "../../src/domain/survey";
import { database } from "../db/client";
import { surveyResponses, users } from "../db/schema";
import type { Env } from "../env";
import { ConflictError, NotFoundError } from "../errors";
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

export interface NewBuyer extends BuyerProfile {
  username: string;
  password: string;
  email: string;
}

export type AccountConflict = { field: "username" | "email"; message: string };

const CONFLICTS: Record<AccountConflict["field"], string> = {
  username: "Username is already taken",
  email: "An account with this email already exists",
};

export async function findAccountConflict(
  db: D1Database,
  username: string,
  email: string,
): Promise<AccountConflict | null> {
  const row = await db
    .prepare(
      `SELECT lower(username) = lower(?1) AS username_taken FROM users
       WHERE lower(username) = lower(?1) OR lower(email) = lower(?2) LIMIT 1`,
    )
    .bind(username, email)
    .first<{ username_taken: number }>();
  if (!row) return null;
  const field = row.username_taken ? "username" : "email";
  return { field, message: CONFLICTS[field] };
}

/** A taken username or e-mail as the wizards show it: the message, and the same under the field's name. */
const accountConflictError = ({ field, message }: AccountConflict) =>
  new ConflictError(message, { errors: { [field]: message } });

/** Creates the account and the survey record in one transaction; Conflict when the username or e-mail is taken. */
export async function createBuyerWithSurvey(
  env: Env,
  buyer: NewBuyer,
  survey: { kind: SurveyKind; answers: Record<string, unknown> },
): Promise<{ userId: string; surveyId: string }> {
  assertNewPasswordAllowed(buyer.password);
  const conflict = await findAccountConflict(env.DB, buyer.username, buyer.email);
  if (conflict) throw accountConflictError(conflict);
  const userId = crypto.randomUUID();
  const surveyId = crypto.randomUUID();
  try {
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO users (id, username, email, password_hash, first_name, last_name, phone, agency_name, role, state)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).bind(
        userId,
        buyer.username,
        buyer.email,
        await hashPassword(buyer.password),
        buyer.firstName,
        buyer.lastName,
        buyer.phone,
        buyer.agencyName,
        buyer.role,
        buyer.state ?? null,
      ),
      env.DB.prepare("INSERT INTO survey_responses (id, user_id, kind, answers) VALUES (?, ?, ?, ?)").bind(
        surveyId,
        userId,
        survey.kind,
        JSON.stringify(survey.answers),
      ),
    ]);
  } catch (error) {
    // Lost a race with another sign-up for the same name or address.
    const raced = await findAccountConflict(env.DB, buyer.username, buyer.email);
    if (raced) throw accountConflictError(raced);
    throw error;
  }
  return { userId, surveyId };
}

/** The saved wizard a payment completes, with its account's id and e-mail; null when unknown. */
export async function findSurvey(d1: D1Database, surveyId: string) {
  const [survey] = await database(d1)
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
  db: D1Database,
  userId: string,
  surveyId: string,
  kind?: SavedSurvey["kind"],
): Promise<SavedSurvey> {
  const [row] = await database(db)
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
  env: Env,
  userId: string,
  surveyId: string,
  profile: BuyerProfile,
  survey: { kind: SavedSurvey["kind"]; answers: Record<string, unknown> },
): Promise<void> {
  const saved = await findOwnSurvey(env.DB, userId, surveyId, survey.kind);
  const answers = { username: saved.username, email: saved.email, ...survey.answers };
  const db = database(env.DB);
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

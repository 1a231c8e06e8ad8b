import { desc, eq, sql } from "drizzle-orm";
import type { PublicUser } from "../../src/domain/user";
import { database } from "../db/client";
import { users } from "../db/schema";
import { hashPassword } from "./passwords";

type UserRecord = typeof users.$inferSelect;

export function toPublicUser(user: UserRecord): PublicUser {
  return {
    id: user.id,
    username: user.username,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    agencyName: user.agencyName,
    role: user.role,
    isAdmin: user.isAdmin,
    accountType: user.accountType,
    createdAt: user.createdAt.toISOString(),
  };
}

export async function findUserByUsername(db: D1Database, username: string): Promise<UserRecord | undefined> {
  return database(db).select().from(users).where(sql`lower(${users.username}) = lower(${username})`).get();
}

export async function findUserByEmail(db: D1Database, email: string): Promise<UserRecord | undefined> {
  return database(db).select().from(users).where(sql`lower(${users.email}) = lower(${email})`).get();
}

export async function findUserById(db: D1Database, id: string): Promise<UserRecord | undefined> {
  return database(db).select().from(users).where(eq(users.id, id)).get();
}

export async function listUsers(db: D1Database): Promise<PublicUser[]> {
  const rows = await database(db).select().from(users).orderBy(desc(users.createdAt));
  return rows.map(toPublicUser);
}

export async function setPassword(db: D1Database, userId: string, password: string): Promise<void> {
  await database(db)
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.id, userId));
}

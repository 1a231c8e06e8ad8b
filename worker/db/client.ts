import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

const make = (d1: D1Database) => drizzle(d1, { schema });

/**
 * One drizzle handle per D1 binding, made the first time the isolate asks: making one reads the whole
 * schema's relations (about a millisecond of CPU, measured in a ping's profile), and a handle keeps nothing
 * of a request (no transaction, no session), so every request of the isolate may share it.
 */
const handles = new WeakMap<D1Database, ReturnType<typeof make>>();

export function database(d1: D1Database) {
  let db = handles.get(d1);
  if (!db) {
    db = make(d1);
    handles.set(d1, db);
  }
  return db;
}

export type Database = ReturnType<typeof database>;

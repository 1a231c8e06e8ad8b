/**
 * Migrations 0029 and 0044 rebuild `webhook_events` for a new event's CHECK (docs/decisions/0060, 0082). On D1
 * foreign keys stay on inside a migration, so the rebuild's DROP TABLE would delete every delivery
 * (ON DELETE CASCADE); the migration keeps them. Played here on SQLite with foreign keys on and the
 * migration inside one transaction, as D1 runs it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { migrationsDir } from "../../../../scripts/lib/migrations.ts";

const files = readdirSync(migrationsDir)
  .filter((file) => file.endsWith(".sql"))
  .sort();
const apply = (db: DatabaseSync, file: string) => {
  for (const statement of readFileSync(join(migrationsDir, file), "utf8").split("--> statement-breakpoint"))
    if (statement.trim()) db.exec(statement);
};

describe("migration 0029 (call-back notifications)", () => {
  it("keeps every webhook delivery through the rebuild of webhook_events, and takes the new event types", () => {
    const db = new DatabaseSync(":memory:");
    db.exec("PRAGMA foreign_keys=ON");
    const rebuild = files.find((file) => file.startsWith("0029_"));
    expect(rebuild).toBeDefined();
    for (const file of files.filter((name) => name < (rebuild ?? ""))) apply(db, file);
    db.exec(`INSERT INTO users (id, username, email, password_hash) VALUES ('u1', 'u1', 'u1@example.com', 'x');
      INSERT INTO webhook_endpoints (id, user_id, name, url, events, secret, secret_created_at, updated_at)
        VALUES ('e1', 'u1', 'CRM', 'https://crm.example.com', '["order.paid"]', 'enc1:x', 1, 1);
      INSERT INTO webhook_events (id, user_id, type, subject_id, payload, created_at)
        VALUES ('evt_1', 'u1', 'order.paid', 'o1', '{}', 1), ('evt_2', 'u1', 'lead.purchased', 'l1', NULL, 2);
      INSERT INTO webhook_deliveries (event_id, endpoint_id, type, subject, rank, event_created_at, next_attempt_at, status, attempts)
        VALUES ('evt_1', 'e1', 'order.paid', 'order:o1', 0, 1, 1, 'delivered', 1),
               ('evt_2', 'e1', 'lead.purchased', 'lead:l1', 0, 2, 2, 'retrying', 3);`);
    expect(() =>
      db.exec(
        "INSERT INTO webhook_events (id, user_id, type, subject_id, created_at) VALUES ('x', 'u1', 'callback.delivered', 'c', 3)",
      ),
    ).toThrow(/CHECK/);

    db.exec("BEGIN");
    apply(db, rebuild ?? "");
    db.exec("COMMIT");

    const deliveries = db.prepare("SELECT event_id, status, attempts FROM webhook_deliveries ORDER BY event_id").all();
    expect(deliveries.map((row) => ({ ...row }))).toEqual([
      { event_id: "evt_1", status: "delivered", attempts: 1 },
      { event_id: "evt_2", status: "retrying", attempts: 3 },
    ]);
    expect(db.prepare("SELECT count(*) AS n FROM webhook_events").get()).toMatchObject({ n: 2 });
    db.exec(`INSERT INTO webhook_events (id, user_id, type, subject_id, created_at)
      VALUES ('evt_3', 'u1', 'callback.delivered', 'c1', 3), ('evt_4', 'u1', 'appointment.delivered', 'c2', 3)`);
    expect(db.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '__keep%'").all()).toEqual([]);
    const columns = db.prepare("SELECT name FROM pragma_table_info('callback_opportunities')").all();
    expect(columns.map((row) => row.name)).toContain("reminded_at");
  });
});

describe("migration 0044 (revocations, docs/decisions/0082)", () => {
  it("keeps every webhook delivery through the rebuild of webhook_events, and takes lead.suppressed", () => {
    const db = new DatabaseSync(":memory:");
    db.exec("PRAGMA foreign_keys=ON");
    const rebuild = files.find((file) => file.startsWith("0044_"));
    expect(rebuild).toBeDefined();
    for (const file of files.filter((name) => name < (rebuild ?? ""))) apply(db, file);
    db.exec(`INSERT INTO users (id, username, email, password_hash) VALUES ('u1', 'u1', 'u1@example.com', 'x');
      INSERT INTO webhook_endpoints (id, user_id, name, url, events, secret, secret_created_at, updated_at)
        VALUES ('e1', 'u1', 'CRM', 'https://crm.example.com', '["callback.delivered"]', 'enc1:x', 1, 1);
      INSERT INTO webhook_events (id, user_id, type, subject_id, payload, created_at)
        VALUES ('evt_1', 'u1', 'callback.delivered', 'c1', '{}', 1);
      INSERT INTO webhook_deliveries (event_id, endpoint_id, type, subject, rank, event_created_at, next_attempt_at, status, attempts)
        VALUES ('evt_1', 'e1', 'callback.delivered', 'callback:c1', 0, 1, 1, 'retrying', 2);`);
    expect(() =>
      db.exec(
        "INSERT INTO webhook_events (id, user_id, type, subject_id, created_at) VALUES ('x', 'u1', 'lead.suppressed', 'r', 3)",
      ),
    ).toThrow(/CHECK/);

    db.exec("BEGIN");
    apply(db, rebuild ?? "");
    db.exec("COMMIT");

    const deliveries = db.prepare("SELECT event_id, status, attempts FROM webhook_deliveries").all();
    expect(deliveries.map((row) => ({ ...row }))).toEqual([{ event_id: "evt_1", status: "retrying", attempts: 2 }]);
    db.exec(
      "INSERT INTO webhook_events (id, user_id, type, subject_id, created_at) VALUES ('evt_2', 'u1', 'lead.suppressed', 'r1', 3)",
    );
    expect(db.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE '__keep%'").all()).toEqual([]);
  });
});

import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { insertLeads } from "../../../../tests/worker/bundle-fixtures";
import { testDb } from "../../../../tests/worker/factories";
import { storedRow } from "../../../../tests/worker/factories/rows";
import { callApi, login, sessionCookie, signedIn } from "../../../../tests/worker/helpers";
import { ringcloudBody, surveyBody } from "../../../../tests/worker/survey-fixtures";
import { orders, outbox, surveyResponses, users } from "../../../db/schema";

describe("POST /api/survey", () => {
  it("creates the buyer's account and keeps the answers (never the password)", async () => {
    const body = surveyBody();
    const response = await callApi("/api/survey", { json: body });
    expect(response.status).toBe(201);
    const { surveyId } = await response.json<{ surveyId: string }>();
    const db = testDb();
    const user = await storedRow(db, users, eq(users.username, body.username));
    expect(user).toMatchObject({ email: body.email, role: "Agency Owner", agency_name: "Agent Co", is_admin: 0 });
    expect(String(user?.password_hash)).toMatch(/^pbkdf2-sha256\$/);
    const saved = (await storedRow(db, surveyResponses, eq(surveyResponses.id, surveyId))) as
      | { answers: string }
      | undefined;
    expect(JSON.parse(saved?.answers ?? "{}")).toMatchObject({ leadType: "Live Transfers", totalTransfers: 10 });
    expect(saved?.answers).not.toContain("agent-secret-1");
    await login({ username: body.username, password: "agent-secret-1" });
  });

  it.each([
    [{ leadType: "Call-Backs", totalCallbacks: 4, totalPrice: 6000 }],
    [{ leadType: "Aged Leads", totalCallbacks: 10, ageRange: "90-180", totalPrice: 2000 }],
  ])("prices %j on the server", async (overrides) => {
    expect((await callApi("/api/survey", { json: surveyBody(overrides) })).status).toBe(201);
  });

  it("refuses a totalPrice that differs from the server's", async () => {
    const response = await callApi("/api/survey", { json: surveyBody({ totalPrice: 100 }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "The total price does not match this order ($350.00)." });
  });

  it.each([
    ["firstName", "", "First name is required"],
    ["lastName", undefined, "Last name is required"],
    ["agencyName", " ", "Agency name is required"],
    ["role", "Boss", "Please select your role"],
    ["phone", "555123", "Phone number must be at least 10 digits"],
    ["email", "nope", "Please enter a valid email address"],
    ["username", "ab", "Username must be at least 3 characters"],
    ["password", "1234567", "Password must be at least 8 characters"],
    ["password", "Baseball", "This password is too common. Please choose another."],
    ["leadType", "Other", "Please select a lead type"],
    ["totalTransfers", 0, "Please enter the number of transfers you want"],
    ["callsPerDay", undefined, "Please enter calls per day"],
    ["transferHours", "", "Please enter transfer hours"],
  ])("refuses %s = %j with '%s'", async (field, value, message) => {
    const response = await callApi("/api/survey", { json: surveyBody({ [field]: value }) });
    expect(response.status).toBe(400);
    expect((await response.json<{ errors: Record<string, string> }>()).errors[field]).toBe(message);
  });

  it("asks call-backs and aged leads for their own fields", async () => {
    const callbacks = await callApi("/api/survey", { json: surveyBody({ leadType: "Call-Backs", totalPrice: 0 }) });
    expect((await callbacks.json<{ errors: Record<string, string> }>()).errors.totalCallbacks).toBe(
      "Please enter the number of callbacks you want",
    );
    const aged = await callApi("/api/survey", { json: surveyBody({ leadType: "Aged Leads", totalPrice: 0 }) });
    expect((await aged.json<{ errors: Record<string, string> }>()).errors).toMatchObject({
      totalCallbacks: "Please enter the number of leads you want",
      ageRange: "Please select an age range",
    });
  });

  it("answers 409 for a taken username or e-mail, naming the field", async () => {
    const first = surveyBody();
    await callApi("/api/survey", { json: first });
    const sameName = await callApi("/api/survey", { json: surveyBody({ username: first.username.toUpperCase() }) });
    expect(sameName.status).toBe(409);
    expect(await sameName.json()).toEqual({
      message: "Username is already taken",
      errors: { username: "Username is already taken" },
    });
    const sameEmail = await callApi("/api/survey", { json: surveyBody({ email: first.email }) });
    expect(sameEmail.status).toBe(409);
    expect((await sameEmail.json<{ errors: Record<string, string> }>()).errors.email).toBeDefined();
  });

  it("allows 10 new accounts a minute per address, then 429", async () => {
    const headers = { "CF-Connecting-IP": "198.51.100.10" };
    for (let i = 0; i < 10; i++) {
      expect((await callApi("/api/survey", { json: surveyBody(), headers })).status).toBe(201);
    }
    const blocked = await callApi("/api/survey", { json: surveyBody(), headers });
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toEqual({ message: expect.stringContaining("Too many") });
  });

  it.each(["/api/survey", "/api/ringcloud-survey"])(
    "%s counts every request toward the limit, so taken names cannot be probed without end",
    async (path) => {
      const headers = { "CF-Connecting-IP": `198.51.100.${path.length}` };
      const taken = path === "/api/survey" ? surveyBody() : ringcloudBody();
      expect((await callApi(path, { json: taken, headers: { "CF-Connecting-IP": "198.51.100.99" } })).status).toBe(201);
      const probe = (username: string) =>
        path === "/api/survey" ? surveyBody({ username }) : ringcloudBody({ username });
      for (let i = 0; i < 10; i++) {
        const answer = await callApi(path, { json: probe(i % 2 ? taken.username : "x"), headers });
        expect(answer.status).toBe(i % 2 ? 409 : 400);
      }
      const blocked = await callApi(path, { json: probe(taken.username), headers });
      expect(blocked.status).toBe(429);
    },
  );
});

describe("POST /api/ringcloud-survey", () => {
  it("creates an Insurance Agent account and answers the checkout parameters", async () => {
    const body = ringcloudBody();
    const response = await callApi("/api/ringcloud-survey", { json: body });
    expect(response.status).toBe(201);
    const { checkout } = await response.json<{ checkout: Record<string, unknown> }>();
    expect(checkout).toEqual({
      amount: 80,
      calls: 20,
      tier: "ringcloud",
      packageType: "partial_apps",
      pricePerUnit: 4,
      ageRange: "60-90",
      survey: expect.any(String),
    });
    const [user] = await testDb()
      .select({ role: users.role, state: users.state })
      .from(users)
      .where(eq(users.username, body.username));
    expect(user).toEqual({ role: "Insurance Agent", state: "TX" });
  });

  it.each([
    [
      {
        leadType: "live_transfers",
        transfersPerDay: 3,
        totalTransfers: 10,
        transferHours: "9-5",
        transferPhone: "5550001111",
      },
      370,
      37,
    ],
    [{ leadType: "call_backs", totalTransfers: 10, callbackPreference: "morning" }, 150, 15],
    [{ leadType: "partial_apps", totalTransfers: 10, ageRange: "30-60" }, 50, 5],
  ])("prices %j", async (overrides, amount, pricePerUnit) => {
    const response = await callApi("/api/ringcloud-survey", { json: ringcloudBody(overrides) });
    expect((await response.json<{ checkout: Record<string, unknown> }>()).checkout).toMatchObject({
      amount,
      pricePerUnit,
    });
  });

  it.each([
    ["agencyName", "", "Agency name is required"],
    ["email", "x", "Valid email required"],
    ["phone", "123", "Phone number required"],
    ["state", "ZZ", "State is required"],
    ["username", "a", "Username must be at least 3 characters"],
    ["password", "1234567", "Password must be at least 8 characters"],
    ["confirmPassword", "123", "Please confirm your password"],
    ["confirmPassword", "agent-secret-2", "Passwords don't match"],
    ["workingStates", "", "Please list the states you work in"],
    ["leadType", "", "Please select a lead type"],
    ["totalTransfers", 0, "Must be at least 1"],
  ])("refuses %s = %j with '%s'", async (field, value, message) => {
    const response = await callApi("/api/ringcloud-survey", { json: ringcloudBody({ [field]: value }) });
    expect(response.status).toBe(400);
    expect((await response.json<{ errors: Record<string, string> }>()).errors[field]).toBe(message);
  });
});

describe("survey payments", () => {
  it("the survey's payment order carries every answer and belongs to the new account", async () => {
    const body = ringcloudBody();
    // Its 20 aged leads of 60-90 days in TX or OK must be in stock (decision 0057).
    await insertLeads(20, { state: "TX", ageDays: 75 });
    const { checkout } = await (await callApi("/api/ringcloud-survey", { json: body })).json<{
      checkout: Record<string, unknown>;
    }>();
    const response = await callApi("/api/create-payment-intent", {
      json: {
        amount: checkout.amount,
        tier: "ringcloud",
        packageType: checkout.packageType,
        quantity: checkout.calls,
        ageRange: checkout.ageRange,
        surveyId: checkout.survey,
      },
    });
    expect(response.status).toBe(200);
    const { orderId } = await response.json<{ orderId: string }>();
    const [order] = await testDb()
      .select({ kind: orders.kind, email: orders.email, details: orders.details, username: users.username })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(eq(orders.id, orderId));
    expect(order).toMatchObject({ kind: "ringcloud", email: body.email, username: body.username });
    expect(order?.details ?? {}).toMatchObject({ workingStates: "TX, OK", agencyName: "Ring Agency" });
  });

  it("refuses a payment that does not match the saved survey", async () => {
    const { surveyId } = await (await callApi("/api/survey", { json: surveyBody() })).json<{ surveyId: string }>();
    const response = await callApi("/api/create-payment-intent", {
      json: { amount: 35, leadType: "Live Transfers", quantity: 1, surveyId },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "This payment does not match your survey answers." });
  });

  it("a paid order sends a confirmation e-mail", async () => {
    const body = surveyBody();
    const { surveyId } = await (await callApi("/api/survey", { json: body })).json<{ surveyId: string }>();
    const start = await (
      await callApi("/api/create-payment-intent", {
        json: { amount: 350, leadType: "Live Transfers", quantity: 10, surveyId },
      })
    ).json<{ clientSecret: string }>();
    await callApi("/api/simulated-payments/confirm", {
      json: { clientSecret: start.clientSecret, cardNumber: "4242424242424242", expiry: "12/34", cvc: "123" },
    });
    const [mail] = await testDb()
      .select({ subject: outbox.subject, text: outbox.text })
      .from(outbox)
      .where(eq(outbox.to, body.email));
    expect(mail?.subject).toBe("Your order is confirmed");
    expect(mail?.text).toContain("$350.00");
  });
});

describe("numbers sent as text", () => {
  it("are read as numbers by the survey", async () => {
    const response = await callApi("/api/survey", { json: surveyBody({ totalTransfers: "10", callsPerDay: "5" }) });
    expect(response.status).toBe(201);
  });
});

describe("repeat saves (going back and forward in a wizard)", () => {
  async function firstSave(path: string, body: Record<string, unknown>) {
    const response = await callApi(path, { json: body });
    expect(response.status).toBe(201);
    const { surveyId } = await response.json<{ surveyId: string }>();
    return { surveyId, cookie: sessionCookie(response) };
  }
  /** Accounts whose username matches case-insensitively (the test file's D1 holds few users). */
  const accountsNamed = async (username: unknown) =>
    (await testDb().select({ username: users.username }).from(users)).filter(
      (row) => row.username.toLowerCase() === String(username).toLowerCase(),
    ).length;
  const answersOf = async (surveyId: string) =>
    (
      await testDb()
        .select({ answers: surveyResponses.answers })
        .from(surveyResponses)
        .where(eq(surveyResponses.id, surveyId))
    )[0]?.answers ?? {};

  it("the first save signs the buyer in; a repeat save updates the same survey and account", async () => {
    const body = surveyBody();
    const { surveyId, cookie } = await firstSave("/api/survey", body);
    expect((await (await callApi("/api/me", { cookie })).json<{ username: string }>()).username).toBe(body.username);

    const changed = {
      ...body,
      agencyName: "Renamed Agency",
      leadType: "Call-Backs",
      totalCallbacks: 4,
      totalPrice: 6000,
    };
    const again = await callApi("/api/survey", { json: { ...changed, surveyId }, cookie });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ message: "Information saved", surveyId, totalPrice: 6000 });
    expect(await accountsNamed(body.username)).toBe(1);
    expect(await answersOf(surveyId)).toMatchObject({
      leadType: "Call-Backs",
      totalCallbacks: 4,
      agencyName: "Renamed Agency",
      username: body.username,
    });
    const [user] = await testDb()
      .select({ agencyName: users.agencyName })
      .from(users)
      .where(eq(users.username, body.username));
    expect(user).toEqual({ agencyName: "Renamed Agency" });

    // Payment follows the latest answers: the old ones no longer match, the new ones do.
    const stale = await callApi("/api/create-payment-intent", {
      json: { amount: 350, leadType: "Live Transfers", quantity: 10, surveyId },
      cookie,
    });
    expect(stale.status).toBe(400);
    const fresh = await callApi("/api/create-payment-intent", {
      json: { amount: 60, leadType: "Call-Backs", quantity: 4, surveyId },
      cookie,
    });
    expect(fresh.status).toBe(200);
  });

  it("refuses a repeat save without the session (401) or from another account (404), changing nothing", async () => {
    const body = surveyBody();
    const { surveyId } = await firstSave("/api/survey", body);
    const update = { ...body, agencyName: "Hijacked", surveyId };
    const anonymous = await callApi("/api/survey", { json: update });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: expect.stringContaining("Log in") });
    const other = await signedIn();
    const stranger = await callApi("/api/survey", { json: update, cookie: other.cookie });
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toEqual({ message: expect.stringContaining("could not find your saved survey") });
    expect(await answersOf(surveyId)).toMatchObject({ agencyName: "Agent Co" });
  });

  it("checks a repeat save like a first one (400 with the field's message)", async () => {
    const body = surveyBody();
    const { surveyId, cookie } = await firstSave("/api/survey", body);
    const response = await callApi("/api/survey", { json: { ...body, surveyId, totalPrice: 1 }, cookie });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "The total price does not match this order ($350.00)." });
    const invalid = await callApi("/api/survey", { json: { ...body, surveyId, callsPerDay: 0 }, cookie });
    expect((await invalid.json<{ errors: Record<string, string> }>()).errors.callsPerDay).toBe(
      "Please enter calls per day",
    );
  });

  it("ringcloud: a repeat save answers new checkout parameters for the same survey", async () => {
    const body = ringcloudBody();
    const { surveyId, cookie } = await firstSave("/api/ringcloud-survey", body);
    const changed = { ...body, leadType: "call_backs", totalTransfers: 10, callbackPreference: "morning", surveyId };
    const response = await callApi("/api/ringcloud-survey", { json: changed, cookie });
    expect(response.status).toBe(200);
    expect((await response.json<{ checkout: Record<string, unknown> }>()).checkout).toMatchObject({
      amount: 150,
      packageType: "call_backs",
      survey: surveyId,
    });
    expect(await accountsNamed(body.username)).toBe(1);

    const resumed = await callApi(`/api/surveys/${surveyId}`, { cookie });
    expect(resumed.status).toBe(200);
    expect(await resumed.json()).toMatchObject({
      surveyId,
      kind: "ringcloud",
      username: body.username,
      email: body.email,
      answers: { leadType: "call_backs", callbackPreference: "morning", state: "TX" },
    });
    expect(JSON.stringify(await answersOf(surveyId))).not.toContain(body.password);
    expect((await callApi(`/api/surveys/${surveyId}`)).status).toBe(401);
    expect((await callApi(`/api/surveys/${surveyId}`, { cookie: (await signedIn()).cookie })).status).toBe(404);
  });

  it("a survey id of the other wizard is not found", async () => {
    const body = surveyBody();
    const { surveyId, cookie } = await firstSave("/api/survey", body);
    const response = await callApi("/api/ringcloud-survey", { json: { ...ringcloudBody(), surveyId }, cookie });
    expect(response.status).toBe(404);
  });
});

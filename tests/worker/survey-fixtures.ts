/** The two survey wizards' answers as the browser posts them, each with a fresh username and e-mail. */
let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}${Math.floor(Math.random() * 1e4)}`;

export function surveyBody(overrides: Record<string, unknown> = {}) {
  const tag = unique();
  return {
    firstName: "Sam",
    lastName: "Agent",
    agencyName: "Agent Co",
    role: "Agency Owner",
    phone: "5551234567",
    email: `sam${tag}@example.com`,
    username: `sam${tag}`,
    password: "agent-secret-1",
    leadType: "Live Transfers",
    totalTransfers: 10,
    callsPerDay: 5,
    transferHours: "9-5 EST",
    totalPrice: 35_000,
    ...overrides,
  };
}

export function ringcloudBody(overrides: Record<string, unknown> = {}) {
  const tag = unique();
  return {
    agencyName: "Ring Agency",
    firstName: "Rae",
    lastName: "Caller",
    email: `rae${tag}@example.com`,
    phone: "5559876543",
    state: "TX",
    username: `rae${tag}`,
    password: "agent-secret-1",
    confirmPassword: "agent-secret-1",
    leadType: "partial_apps",
    totalTransfers: 20,
    ageRange: "60-90",
    workingStates: "TX, OK",
    role: "Insurance Agent",
    ...overrides,
  };
}

/**
 * docs/decisions/0084 and 0082: a registry change reaches a buyer. A lead the buyer bought yesterday has its
 * number added to the National Registry by a change list; the re-scrub that follows the swap revokes the sale,
 * and My Leads flags the number ("Added to Do Not Call on …").
 */
import { eq } from "drizzle-orm";
import { suppressionRevocations } from "../../worker/db/schema";
import { createLead } from "../worker/factories/leads";
import { createUser, e2eDb } from "./database";
import { expect, signIn, test } from "./fixtures";
import { uploadNationalChanges } from "./registry";

test("a buyer sees a revocation flag after a registry change list adds a number they bought", async ({
  page,
  adminPage,
}) => {
  test.setTimeout(120_000);
  const user = await createUser();
  // Area code 808 (Hawaii), a line of its own per run.
  const phone = `808${String(Date.now() % 10_000_000).padStart(7, "0")}`;
  await createLead(e2eDb(), {
    id: `${user.username}-registry`,
    name: "Registry Lead",
    email: "r@example.com",
    phone,
    state: "HI",
    formFillTime: new Date(1700000000000),
    dedupeKey: `${user.username}|registry`,
    soldToUserId: user.id,
    soldOrderId: "e2e",
    soldAt: new Date(Date.now() - 86_400_000),
  });
  await signIn(page, user.username, user.password, "/dashboard");
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "My Leads" }).click();
  const row = page.getByRole("row", { name: /Registry Lead/ });
  await expect(row).toBeVisible();
  await expect(row.getByTestId("dnc-flag")).toHaveCount(0);

  const today = new Date().toISOString().slice(0, 10);
  await uploadNationalChanges(adminPage.request, 808, `808,${phone.slice(3)},${today},A\n`, "808,0000001\n");
  await expect
    .poll(() =>
      e2eDb()
        .select({ kind: suppressionRevocations.listKind })
        .from(suppressionRevocations)
        .where(eq(suppressionRevocations.userId, user.id)),
    )
    .toEqual([{ kind: "national_dnc" }]);

  // The server that applied the change knows its new version at once; the re-scrub runs in Queue slices.
  await expect(async () => {
    await page.reload();
    await expect(row.getByTestId("dnc-flag")).toHaveText(`Added to Do Not Call on ${today}`, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
});

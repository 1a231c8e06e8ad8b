/** The two onboarding wizards' saves (spec §7 `/api/survey`, `/api/ringcloud-survey`; PRODUCT.md D4, D11). */
import { Hono } from "hono";
import { formatUsd, quoteRingcloud, quoteSurvey } from "../../src/domain/pricing";
import {
  type RingcloudCheckoutParams,
  ringcloudSubmissionSchema,
  surveyQuantity,
  surveySubmissionSchema,
} from "../../src/domain/schemas/survey";
import type { AppBindings } from "../env";
import { errorJson } from "../http";
import { rateLimit } from "../middleware/rate-limit";
import { createBuyerWithSurvey } from "../services/accounts";
import { validateJson } from "../validation";

/**
 * Ten sign-up requests a minute per address, whatever they answer: refused and conflicting ones count
 * too, so "username taken" answers cannot be harvested without limit (both wizards share the count).
 */
const accountCreationLimit = rateLimit("survey");

export const surveys = new Hono<AppBindings>()
  .post("/survey", accountCreationLimit, validateJson(surveySubmissionSchema), async (c) => {
    const { password, totalPrice, ...answers } = c.req.valid("json");
    const quote = quoteSurvey(answers.leadType, surveyQuantity(answers), answers.ageRange);
    if (!quote.ok) return errorJson(c, 400, quote.message);
    if (totalPrice !== quote.totalCents) {
      return errorJson(c, 400, `The total price does not match this order (${formatUsd(quote.totalCents)}).`);
    }
    const created = await createBuyerWithSurvey(c.env, { ...answers, password }, { kind: "survey", answers });
    if ("field" in created)
      return c.json({ message: created.message, errors: { [created.field]: created.message } }, 409);
    return c.json({ message: "Information saved", surveyId: created.surveyId, totalPrice: quote.totalCents }, 201);
  })
  .post("/ringcloud-survey", accountCreationLimit, validateJson(ringcloudSubmissionSchema), async (c) => {
    const { password, confirmPassword: _confirm, ...answers } = c.req.valid("json");
    const quantity = answers.totalTransfers ?? 0;
    const ageRange = answers.leadType === "partial_apps" ? answers.ageRange : undefined;
    const quote = quoteRingcloud(answers.leadType, quantity, ageRange);
    if (!quote.ok) return errorJson(c, 400, quote.message);
    const created = await createBuyerWithSurvey(
      c.env,
      { ...answers, password, role: "Insurance Agent" },
      { kind: "ringcloud", answers },
    );
    if ("field" in created)
      return c.json({ message: created.message, errors: { [created.field]: created.message } }, 409);
    const checkout: RingcloudCheckoutParams = {
      amount: quote.totalCents / 100,
      calls: quantity,
      tier: "ringcloud",
      packageType: answers.leadType,
      pricePerUnit: quote.unitCents / 100,
      ...(ageRange ? { ageRange } : {}),
      survey: created.surveyId,
    };
    return c.json({ message: "Survey submitted", surveyId: created.surveyId, checkout }, 201);
  });

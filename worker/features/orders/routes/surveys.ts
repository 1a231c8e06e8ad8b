/**
 * The two onboarding wizards' saves (`/api/survey`, `/api/ringcloud-survey`; product rules 33, 42).
 * The first save creates the account and signs the buyer in; a repeat save names its `surveyId` and, from
 * that signed-in account, updates the same survey (decision 0017).
 */
import { type Context, Hono, type Next } from "hono";
import type { z } from "zod";
import {
  namesSavedSurvey,
  ringcloudSubmissionSchema,
  ringcloudUpdateSchema,
  surveySubmissionSchema,
  surveyUpdateSchema,
} from "../../../../src/domain/schemas/survey";
import type { AppBindings, SignedInBindings } from "../../../env";
import { UnauthenticatedError } from "../../../errors";
import { rateLimit } from "../../../middleware/rate-limit";
import { sessions } from "../../../services/sessions";
import { validateJson, validationFailure } from "../../../validation";
import { createBuyerWithSurvey, findOwnSurvey, updateBuyerSurvey } from "../../accounts/index";
import { ringcloudCheckout, surveyQuote } from "../checkout";

/**
 * Ten sign-up requests a minute per address, whatever they answer: refused and conflicting ones count
 * too, so "username taken" answers cannot be harvested without limit (both wizards share the count;
 * repeat saves count as well).
 */
const accountCreationLimit = rateLimit("survey");

type SurveyContext = Context<AppBindings>;

/**
 * Handles a repeat save (a body naming its `surveyId`) with `schema` and `save`, signed in only;
 * any other body goes on to the account-creating handler.
 */
function repeatSave<Schema extends z.ZodType>(
  schema: Schema,
  save: (c: SurveyContext, userId: string, body: z.infer<Schema>) => Promise<Response>,
) {
  return async (c: SurveyContext, next: Next) => {
    const body: unknown = await c.req.json().catch(() => null);
    if (!namesSavedSurvey(body)) return next();
    const parsed = schema.safeParse(body);
    if (!parsed.success) return validationFailure(c, parsed.error);
    const user = c.get("user");
    if (!user) throw new UnauthenticatedError("Your session has ended. Log in to continue with your saved survey.");
    return save(c, user.id, parsed.data);
  };
}

/** Signs the new buyer in, so that later saves of the same wizard go through the session. */
async function signIn(c: SurveyContext, userId: string) {
  c.header("Set-Cookie", await sessions(c.var.deps).create(userId), { append: true });
}

/** Mounted in the public sub-app (worker/api.ts). */
export const surveys = new Hono<AppBindings>()
  .post(
    "/survey",
    accountCreationLimit,
    // The spec's `totalPrice` (POST /api/survey, both ways) is in cents.
    repeatSave(surveyUpdateSchema, async (c, userId, { surveyId, totalPrice: totalCents, ...answers }) => {
      const quote = surveyQuote(answers, totalCents);
      await updateBuyerSurvey(c.var.deps, userId, surveyId, answers, { kind: "survey", answers });
      return c.json({ message: "Information saved", surveyId, totalPrice: quote.totalCents }, 200);
    }),
    validateJson(surveySubmissionSchema),
    async (c) => {
      const { password, totalPrice: totalCents, ...answers } = c.req.valid("json");
      const quote = surveyQuote(answers, totalCents);
      const created = await createBuyerWithSurvey(c.var.deps, { ...answers, password }, { kind: "survey", answers });
      await signIn(c, created.userId);
      return c.json({ message: "Information saved", surveyId: created.surveyId, totalPrice: quote.totalCents }, 201);
    },
  )
  .post(
    "/ringcloud-survey",
    accountCreationLimit,
    repeatSave(ringcloudUpdateSchema, async (c, userId, { surveyId, ...answers }) => {
      const checkout = ringcloudCheckout(answers, surveyId);
      await updateBuyerSurvey(c.var.deps, userId, surveyId, answers, { kind: "ringcloud", answers });
      return c.json({ message: "Survey submitted", surveyId, checkout }, 200);
    }),
    validateJson(ringcloudSubmissionSchema),
    async (c) => {
      const { password, confirmPassword: _confirm, ...answers } = c.req.valid("json");
      const checkout = ringcloudCheckout(answers, "");
      const created = await createBuyerWithSurvey(
        c.var.deps,
        { ...answers, password, role: "Insurance Agent" },
        { kind: "ringcloud", answers },
      );
      await signIn(c, created.userId);
      return c.json(
        {
          message: "Survey submitted",
          surveyId: created.surveyId,
          checkout: { ...checkout, survey: created.surveyId },
        },
        201,
      );
    },
  );

/** The signed-in buyer's own saved survey, so a wizard can resume it (e.g. 'Back to Survey'): account sub-app. */
export const savedSurveys = new Hono<SignedInBindings>().get("/surveys/:id", async (c) =>
  c.json(await findOwnSurvey(c.var.deps, c.get("user").id, c.req.param("id"))),
);

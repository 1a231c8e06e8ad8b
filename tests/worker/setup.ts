import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
// Tests call order services directly: the products sold through orders are registered as the Worker does.
import "../../worker/order-products";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

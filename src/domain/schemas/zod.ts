/**
 * The one zod every schema is built with. `jitless`: zod would otherwise probe `new Function` the
 * first time it builds an object schema, which the site's CSP (no 'unsafe-eval') reports as a console
 * error in every browser, and which Workers refuse anyway.
 */
import { z } from "zod";

z.config({ jitless: true });

export { z };

/// <reference types="astro/client" />

import type { PublicUser } from "./domain/user";
import type { Flash } from "./features/accounts/flash";
import type { RegistryPageNotices } from "./features/do-not-call/list-freshness";

declare global {
  namespace App {
    interface Locals {
      /** Who is signed in, set by src/middleware.ts for pages rendered in the Worker (null when pre-rendered). */
      user: PublicUser | null;
      /** A message left for this page by the previous response (src/features/accounts/flash.ts), shown once. */
      flash: Flash | null;
      /** The Do Not Call registry's notices for this page (docs/decisions/0085), or null. */
      registry: RegistryPageNotices | null;
    }
  }
}

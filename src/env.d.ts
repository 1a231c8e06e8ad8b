/// <reference types="astro/client" />
import type { PublicUser } from "./domain/user";

declare global {
  namespace App {
    interface Locals {
      /** Who is signed in, set by src/middleware.ts for pages rendered in the Worker (null when pre-rendered). */
      user: PublicUser | null;
    }
  }
}

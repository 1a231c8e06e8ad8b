/** Debian's Chromium, headless, with no outside network; CHROMIUM_PATH overrides the binary. */
import { type Browser, chromium } from "playwright-core";

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
];

/** Debian's Chromium unless CHROMIUM_PATH names another binary. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: chromiumArgs,
  });
}

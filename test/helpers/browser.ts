/**
 * Headless Chromium for the widget tests: Debian's `chromium` (installed by .ci/run), driven by
 * playwright-core, which downloads no browser of its own. A machine without it fails these tests
 * with what to install, rather than skipping them.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Root in a container: no sandbox. No background traffic: the machine's network is closed.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

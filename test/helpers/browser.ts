/**
 * Headless Chromium for the widget tests: Debian's `chromium`, driven by playwright-core, which
 * downloads no browser of its own. The binary is the one the global setup found (CHROMIUM_PATH,
 * else chromium on PATH, installed when missing and permitted). A machine without it fails these
 * tests at once with the setup's message saying what to install, rather than skipping them.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { programPath } from "./programs.js";

export async function launchChromium(): Promise<Browser> {
  const executable = programPath("chromium", process.env.CHROMIUM_PATH || "/usr/bin/chromium");
  if (!existsSync(executable)) throw new Error(`no Chromium at ${executable}: install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH`);
  return chromium.launch({
    executablePath: executable,
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

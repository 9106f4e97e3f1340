/**
 * `mcpgen dev` on the project `mcpgen init --widget` writes, run as a user runs it (the built
 * binary, in the project), with the page open in headless Chromium: an edit of the widget's source,
 * of the manifest or of a handler shows in the open page without the test reloading it; an edit
 * that does not generate, or has type errors (shown in the terminal and over the open page), is
 * reported and the last good build keeps serving; `--mock` serves the mock instead of the handlers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/browser.js";
import { mcpgen, ROOT } from "../helpers/cli.js";
import { linkStarterPackages, tempProject } from "../helpers/tmp.js";
import { untilValue } from "../helpers/wait.js";

let browser: Browser;
let dir: string;
const running: Dev[] = [];

/** A `mcpgen dev` process and everything it printed. */
interface Dev {
  child: ChildProcess;
  output: () => string;
  /** Waits for `pattern` in what it prints from `from` on (default: from the start); the match. */
  waitFor(pattern: RegExp, from?: number): Promise<RegExpMatchArray>;
}

function startDev(args: string[]): Dev {
  const child = spawn(process.execPath, [path.join(ROOT, "dist/cli/bin.js"), "dev", "--port", "0", ...args], { cwd: dir });
  let text = "";
  child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  const dev: Dev = {
    child,
    output: () => text,
    waitFor: async (pattern, from = 0) => {
      const printed = await untilValue(
        () => text.slice(from),
        (since) => pattern.test(since),
        `mcpgen dev to print ${pattern}`,
        { timeout: 30_000 },
      );
      return printed.match(pattern)!;
    },
  };
  running.push(dev);
  return dev;
}

async function stopDev(dev: Dev): Promise<void> {
  if (dev.child.exitCode !== null) return;
  const exited = new Promise((resolve) => dev.child.once("exit", resolve));
  dev.child.kill("SIGTERM");
  await exited;
}

/** Replaces `from` by `to` in a project file (the edit must apply). */
function edit(file: string, from: string, to: string): void {
  const abs = path.join(dir, file);
  const text = readFileSync(abs, "utf8");
  expect(text).toContain(from);
  writeFileSync(abs, text.replace(from, to));
}

beforeAll(async () => {
  const parent = tempProject();
  expect(mcpgen(["init", "starter", "--widget", "--mcpgen", "file:../mcpgen"], parent).code).toBe(0);
  dir = path.join(parent, "starter");
  // The packages, linked (no install): dev type checks the project with its TypeScript.
  linkStarterPackages(dir);
  browser = await launchChromium();
}, 120_000);

afterEach(async () => {
  for (const dev of running.splice(0)) await stopDev(dev);
});

afterAll(async () => {
  await browser?.close();
});

/** The scenario page, and how many times it loaded (the test never reloads it itself). */
async function openScenario(url: string): Promise<{ page: Page; loads: () => number }> {
  const page = await browser.newPage();
  let loads = 0;
  page.on("load", () => loads++);
  await page.goto(`${url}scenario/0`);
  return { page, loads: () => loads };
}

const heading = (page: Page) => page.frameLocator("iframe").locator("h1").textContent();
const greeting = (page: Page) => page.frameLocator("iframe").locator(".greeting:not(.pending)").textContent();

describe("mcpgen dev", () => {
  it("edits of the widget, the manifest and a handler show in the open page; a broken edit keeps the last build", async () => {
    const dev = startDev([]);
    const [, url] = await dev.waitFor(/mcpgen dev: starter against its handlers: (http:\/\/127\.0\.0\.1:\d+\/) \(build 1,/);
    const { page, loads } = await openScenario(url!);
    await expect.poll(() => heading(page), { timeout: 15_000 }).toBe("Greeting Ada");
    expect(await greeting(page)).toBe("Hello, Ada!");
    expect(loads()).toBe(1);

    // The widget's source: bundled again, the page reloads itself.
    let mark = dev.output().length;
    edit("manifests/widgets/greeting.ts", "`Greeting ${args.name}`", "`Welcome ${args.name}`");
    await dev.waitFor(/\(build 2,/, mark);
    await expect.poll(() => heading(page), { timeout: 15_000 }).toBe("Welcome Ada");
    expect(loads()).toBe(2);

    // The manifest: the example loses its result, so the harness calls the tool: the handler answers.
    mark = dev.output().length;
    edit("manifests/starter.yaml", '        result: {greeting: "Hello, Ada!"}\n', "");
    await dev.waitFor(/\(build 3,/, mark);
    await expect.poll(() => loads(), { timeout: 15_000 }).toBe(3);
    await expect.poll(() => greeting(page), { timeout: 15_000 }).toBe("Hello, Ada!");

    // A handler: the server restarts with it.
    mark = dev.output().length;
    edit("src/handlers/starter/tools/greet.ts", '"Hello"', '"Howdy"');
    await dev.waitFor(/\(build 4,/, mark);
    await expect.poll(() => greeting(page), { timeout: 15_000 }).toBe("Howdy, Ada!");

    // An edit that does not generate: its diagnostic, and the last good build still serves.
    mark = dev.output().length;
    edit("manifests/starter.yaml", "    widget: greeting\n", "    widget: greetign\n");
    const [reported] = await dev.waitFor(/still serving the last good build at http:\/\/127\.0\.0\.1:\d+\//, mark);
    expect(dev.output().slice(mark)).toMatch(/manifests\/starter\.yaml:\d+:\d+: error/);
    expect(reported).toContain(url);
    const again = await openScenario(url!);
    await expect.poll(() => greeting(again.page), { timeout: 15_000 }).toBe("Howdy, Ada!");
    // Fixed: build 5.
    mark = dev.output().length;
    edit("manifests/starter.yaml", "    widget: greetign\n", "    widget: greeting\n");
    await dev.waitFor(/\(build 5,/, mark);
    await expect.poll(() => heading(page), { timeout: 15_000 }).toBe("Welcome Ada");
    expect(dev.output()).not.toMatch(/internal error/);
    await page.close();
    await again.page.close();
  }, 120_000);

  it("type errors show in the terminal and over the open page; the last good build keeps serving; the fix takes them away", async () => {
    const dev = startDev([]);
    const [, url] = await dev.waitFor(/mcpgen dev: starter against its handlers: (http:\/\/127\.0\.0\.1:\d+\/) \(build 1,/);
    expect(dev.output()).not.toMatch(/type error/);
    const { page, loads } = await openScenario(url!);
    await expect.poll(() => heading(page), { timeout: 15_000 }).toBe("Welcome Ada");
    const overlay = page.locator("#mcpgen-problems");

    // The widget reads a property its typed input does not have.
    let mark = dev.output().length;
    edit("manifests/widgets/greeting.ts", "`Welcome ${args.name}`", "`Welcome ${args.nme}`");
    await dev.waitFor(/still serving the last good build at \S+ \(its pages show the errors\)/, mark);
    expect(dev.output().slice(mark)).toMatch(
      /mcpgen dev: 1 type error \(typescript 7\.\d+\.\d+, tsconfig\.json, manifests\/widgets\/tsconfig\.json\):\n {2}manifests\/widgets\/greeting\.ts:\d+:\d+: error TS2551: Property 'nme' does not exist on type/,
    );
    await expect
      .poll(() => overlay.textContent(), { timeout: 15_000 })
      .toMatch(
        /^1 type error: this page is the last build without them\. Fix and save\.manifests\/widgets\/greeting\.ts:\d+:\d+: error TS2551: Property 'nme'/,
      );
    // The page is the last good build, not reloaded.
    expect(await heading(page)).toBe("Welcome Ada");
    expect(loads()).toBe(1);

    // A handler returns a property its outputSchema does not have: two errors now, pushed to the page.
    mark = dev.output().length;
    edit("src/handlers/starter/tools/greet.ts", "return { greeting:", "return { greting:");
    await dev.waitFor(/still serving the last good build/, mark);
    expect(dev.output().slice(mark)).toMatch(/mcpgen dev: 2 type errors /);
    expect(dev.output().slice(mark)).toMatch(/src\/handlers\/starter\/tools\/greet\.ts:\d+:\d+: error TS\d+: .*greting/);
    await expect.poll(() => overlay.textContent(), { timeout: 15_000 }).toMatch(/^2 type errors: /);
    expect(await overlay.textContent()).toMatch(/greet\.ts:\d+:\d+: error TS\d+: .*greting/);
    expect(await overlay.textContent()).toMatch(/greeting\.ts:\d+:\d+: error TS2551: Property 'nme'/);

    // Both fixed: a new build, the page reloads without the overlay.
    mark = dev.output().length;
    edit("src/handlers/starter/tools/greet.ts", "return { greting:", "return { greeting:");
    await dev.waitFor(/still serving the last good build/, mark);
    mark = dev.output().length;
    edit("manifests/widgets/greeting.ts", "`Welcome ${args.nme}`", "`Welcome ${args.name}`");
    await dev.waitFor(/\(build 2,/, mark);
    await expect.poll(() => loads(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => heading(page), { timeout: 15_000 }).toBe("Welcome Ada");
    expect(await overlay.count()).toBe(0);
    expect(dev.output().slice(mark)).not.toMatch(/type error/);
    await page.close();
  }, 120_000);

  it("--mock answers from the manifest even when handlers exist", async () => {
    const dev = startDev(["--mock"]);
    const [, url] = await dev.waitFor(/mcpgen dev: starter against mcpgen mock \(--mock\): (http:\/\/127\.0\.0\.1:\d+\/)/);
    const { page } = await openScenario(url!);
    // The example has no result since the first test: the mock generates one from the outputSchema.
    await expect.poll(() => greeting(page), { timeout: 15_000 }).toMatch(/\S/);
    expect(await greeting(page)).not.toMatch(/^(Hello|Howdy), Ada!$/);
    await page.close();
  }, 60_000);
});

/**
 * `mcpgen/react` in a real widget: the gift server's view written with the hooks
 * (test/fixtures/react-gifts/gifts.tsx) in a copy of examples/gift-server, bundled by `mcpgen
 * generate`, hosted by the harness in headless Chromium on both bridges and served by the
 * example's real handlers. The hooks are typed by the generated client: a call to a tool the view
 * may not call does not compile.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import type { Browser, ConsoleMessage } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHarness, type Harness, type Scenario } from "../../src/harness/index.js";
import { launchChromium } from "../helpers/browser.js";
import { mcpgen, ROOT } from "../helpers/cli.js";
import { linkPackages, tempProject } from "../helpers/tmp.js";

const FIXTURE = path.join(ROOT, "test/fixtures/react-gifts");
let browser: Browser;
let harness: Harness;
let dir: string;

beforeAll(async () => {
  dir = tempProject();
  const example = path.join(ROOT, "examples/gift-server");
  for (const part of ["manifests", "src", "mcpgen.config.json", "package.json", "tsconfig.json"])
    cpSync(path.join(example, part), path.join(dir, part), { recursive: true });
  const widgets = path.join(dir, "manifests/widgets");
  copyFileSync(path.join(FIXTURE, "gifts.tsx"), path.join(widgets, "gifts.tsx"));
  const manifest = path.join(dir, "manifests/gift-server.yaml");
  writeFileSync(manifest, readFileSync(manifest, "utf8").replace("entry: widgets/gifts.ts\n", "entry: widgets/gifts.tsx\n"));
  const tsconfig = JSON.parse(readFileSync(path.join(widgets, "tsconfig.json"), "utf8")) as { compilerOptions: object; include: string[] };
  writeFileSync(
    path.join(widgets, "tsconfig.json"),
    JSON.stringify({ ...tsconfig, compilerOptions: { ...tsconfig.compilerOptions, jsx: "react-jsx" }, include: ["*.ts", "*.tsx"] }),
  );
  // The repository's packages, linked as an install would put them, mcpgen itself among them.
  linkPackages(dir, true);
  const made = mcpgen(["generate"], dir);
  expect(made.stderr).toBe("");
  expect(made.code).toBe(0);
  const generated = path.join(dir, "generated/gift-server");
  const { handlers } = (await import(path.join(generated, "handlers.ts"))) as { handlers: unknown };
  const { createServerFactory } = (await import(path.join(generated, "index.ts"))) as { createServerFactory: (h: unknown) => () => unknown };
  const { scenarios } = (await import(path.join(generated, "widgets/scenarios.ts"))) as { scenarios: Scenario[] };
  browser = await launchChromium();
  // A second scenario: an idea the details tool does not know, so its call answers a tool error.
  const unknown = { ...scenarios[0]!, result: { gifts: [{ name: "Kite", price: 30 }] } };
  harness = await serveHarness({ server: createServerFactory(handlers), scenarios: [...scenarios, unknown] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

async function open(url: string) {
  const page = await browser.newPage();
  const console: string[] = [];
  page.on("console", (m: ConsoleMessage) => void console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => void console.push(`pageerror: ${e.message}`));
  page.on("response", (r) => void (r.status() >= 400 && console.push(`http ${r.status()}: ${r.url()}`)));
  await page.goto(url);
  return { page, console };
}

describe.each(["mcp-apps", "openai"] as const)("a React widget on mcpgen/react, %s bridge", (bridge) => {
  it("useToolInput and useToolResult render what the host sent; useCall shows pending, then the typed answer", async () => {
    const before = harness.calls.length;
    const { page, console } = await open(harness.scenarioUrl(0, bridge));
    const frame = page.frameLocator("iframe");
    await expect.poll(() => frame.locator("li[data-gift]").count(), { timeout: 15_000 }).toBe(2);
    expect(await frame.locator("h1").textContent()).toBe("Ideas for a birthday, up to $100");
    expect(await frame.locator("li[data-gift] .name").allTextContents()).toEqual(["Board game: Catan", "Dice set"]);
    expect(await frame.locator("li[data-gift] .price").allTextContents()).toEqual(["$45", "$20"]);

    const dice = frame.locator('li[data-gift="Dice set"]');
    await dice.locator("button").click();
    await expect.poll(() => dice.locator(".details").getAttribute("data-state"), { timeout: 10_000 }).toBe("done");
    expect(await dice.locator(".details").textContent()).toBe("Seven polyhedral dice for tabletop games. (games)");
    expect(await dice.locator("button").isDisabled()).toBe(false);
    // useWidgetState: the page keeps it (or ChatGPT's window.openai does), and the view renders it.
    expect(await frame.locator(".opened").textContent()).toBe("Dice set");
    expect(harness.calls.slice(before)).toEqual([expect.objectContaining({ tool: "gift_details", arguments: { name: "Dice set" } })]);
    // Chromium asks for /favicon.ico (the harness has none) outside Playwright's view: resource failures are the `http` lines.
    const errors = console.filter((line) => /^(error|pageerror|http)/.test(line) || /Content Security Policy|Refused to/.test(line));
    expect(errors.filter((line) => !line.startsWith("error: Failed to load resource"))).toEqual([]);
    await page.close();
  });
});

describe.each(["mcp-apps", "openai"] as const)("useCall's error state, %s bridge", (bridge) => {
  it("a tool error leaves pending, sets error with the server's message, and the next call can start", async () => {
    const before = harness.calls.length;
    const { page, console } = await open(harness.scenarioUrl(1, bridge));
    const kite = page.frameLocator("iframe").locator('li[data-gift="Kite"]');
    await expect.poll(() => kite.count(), { timeout: 15_000 }).toBe(1);
    await kite.locator("button").click();
    await expect.poll(() => kite.locator(".details").getAttribute("data-state"), { timeout: 10_000 }).toBe("done");
    expect(await kite.locator(".details").getAttribute("class")).toBe("details error");
    expect(await kite.locator(".details").textContent()).toBe("No gift named Kite");
    expect(await kite.locator("button").isDisabled()).toBe(false);
    // Again: the error stays until the next call ends, which fails the same way.
    await kite.locator("button").click();
    await expect.poll(() => harness.calls.length - before, { timeout: 10_000 }).toBe(2);
    expect(harness.calls.slice(before).map((c) => [c.tool, (c.result as { isError?: boolean }).isError])).toEqual([
      ["gift_details", true],
      ["gift_details", true],
    ]);
    const errors = console.filter((line) => /^(pageerror|http)/.test(line) || /Content Security Policy|Refused to/.test(line));
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe("mcpgen/react's types", () => {
  it("type the hooks by the generated client: the widget compiles, a call to a model-only tool does not", () => {
    copyFileSync(path.join(FIXTURE, "not-callable.tsx"), path.join(dir, "manifests/widgets/not-callable.tsx"));
    const tsc = spawnSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "manifests/widgets/tsconfig.json"], {
      cwd: dir,
      encoding: "utf8",
    });
    const errors = tsc.stdout.split("\n").filter((l) => /error TS/.test(l));
    expect(errors).toEqual([
      expect.stringMatching(/^manifests\/widgets\/not-callable\.tsx\(8,30\): error TS2345: Argument of type '"suggest_gifts"' is not assignable/),
    ]);
  }, 120_000);
});

/**
 * What a new user sees first with `mcpgen init --widget`, in headless Chromium: the harness's
 * index page and the starter widget, both styled as the gift widget is (the system font, cards),
 * not the browser's default serif. The project is the one init writes, served in process by the
 * harness from its own generated code and handler.
 */
import * as path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveHarness, type Harness, type Scenario } from "../../src/harness/index.js";
import { launchChromium } from "../helpers/browser.js";
import { mcpgen } from "../helpers/cli.js";
import { linkPackages, tempProject } from "../helpers/tmp.js";

let browser: Browser;
let harness: Harness;

beforeAll(async () => {
  const parent = tempProject();
  const made = mcpgen(["init", "starter", "--widget", "--mcpgen", "file:../mcpgen"], parent);
  expect(made.stderr).toBe("");
  const dir = path.join(parent, "starter");
  // The repository's packages, linked (no install): the generated code imports the SDK from there.
  linkPackages(dir);
  const generated = path.join(dir, "generated/starter");
  const { handlers } = (await import(path.join(generated, "handlers.ts"))) as { handlers: unknown };
  const { createServerFactory } = (await import(path.join(generated, "index.ts"))) as { createServerFactory: (h: unknown) => () => unknown };
  const { scenarios } = (await import(path.join(generated, "widgets/scenarios.ts"))) as { scenarios: Scenario[] };
  browser = await launchChromium();
  harness = await serveHarness({ server: createServerFactory(handlers), scenarios });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

/** The computed style properties of the first element `selector` matches, in the page or frame's script. */
const styleOf = (selector: string, ...properties: string[]) =>
  `(() => { const s = getComputedStyle(document.querySelector(${JSON.stringify(selector)})); return ${JSON.stringify(properties)}.map((p) => s.getPropertyValue(p)); })()`;

describe("a new project's widget, in the harness", () => {
  it("the index page is styled: the system font, one card per scenario with a link per bridge (and one approval-gated)", async () => {
    const page = await browser.newPage();
    await page.goto(harness.url);
    expect(await page.evaluate<string[]>(styleOf("body", "font-family"))).toEqual([expect.stringMatching(/^system-ui/)]);
    expect(await page.locator("h1").textContent()).toBe("Widgets");
    const card = page.locator("li");
    expect(await card.count()).toBe(1);
    expect(await card.locator(".tool").textContent()).toBe("greet");
    expect(await card.locator(".widget").textContent()).toBe("ui://starter/greeting.html");
    expect(await page.evaluate<string[]>(styleOf("li", "border-top-left-radius", "background-color"))).toEqual(["8px", "rgb(255, 255, 255)"]);
    expect(await card.locator("a").evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute("href")]))).toEqual([
      ["MCP Apps", "/scenario/0"],
      ["window.openai", "/scenario/0?bridge=openai"],
      ["approval-gated", "/scenario/0?bridge=openai&approval=1"],
    ]);
    await page.close();
  });

  it("the starter widget shows the example's greeting as the gift widget shows its ideas: system font, a bordered card", async () => {
    const page = await browser.newPage();
    await page.goto(harness.scenarioUrl(0));
    const frame = page.frameLocator("iframe");
    await expect.poll(() => frame.locator(".greeting").getAttribute("class"), { timeout: 15_000 }).toBe("greeting");
    expect(await frame.locator("h1").textContent()).toBe("Greeting Ada");
    expect(await frame.locator(".greeting").textContent()).toBe("Hello, Ada!");
    const view = page.frames().find((f) => f !== page.mainFrame())!;
    expect(await view.evaluate<string[]>(styleOf("main", "font-family"))).toEqual([expect.stringMatching(/^system-ui/)]);
    expect(await view.evaluate<string[]>(styleOf(".greeting", "border-top-style", "border-top-left-radius"))).toEqual(["solid", "8px"]);
    await page.close();
  });
});

/**
 * The harness's `window.openai` in headless Chromium, with the generated gift server: every global
 * of OpenAI's reference is there when the widget's script runs, `openai:set_globals` carries only
 * the keys that changed, `callTool` answers `{result: string}` with the structured output beside
 * it, a call to a tool that is not `openai/widgetAccessible` is refused, an approval-gated call
 * holds its input back until the page's Approve button, the other methods reach the host, and the
 * widget's Content-Security-Policy is served as it is (the script goes before it).
 */
import type { Browser, ConsoleMessage, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerFactory } from "../../examples/gift-server/generated/gift-server/index.js";
import { scenarios } from "../../examples/gift-server/generated/gift-server/widgets/scenarios.js";
import { serveHarness, type Harness } from "../../src/harness/index.js";
import { launchChromium } from "../helpers/browser.js";
import { sleep, until } from "../helpers/wait.js";
import { giftHandlers } from "../servers/gift.js";

let browser: Browser;
let harness: Harness;

beforeAll(async () => {
  browser = await launchChromium();
  harness = await serveHarness({ server: createServerFactory(giftHandlers), scenarios });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

const GIFTS = {
  gifts: [
    { name: "Board game: Catan", price: 45 },
    { name: "Dice set", price: 20 },
  ],
};
const INPUT = { occasion: "birthday", budget: 100, recipient: "friend who loves board games" };
const DICE = { name: "Dice set", description: "Seven polyhedral dice for tabletop games.", category: "games" };

/** The scenario page with window.openai, its widget frame (once the gifts or the frame are there), and the console. */
async function open(approval = false): Promise<{ page: Page; view: Frame; console: string[] }> {
  const page = await browser.newPage();
  const console: string[] = [];
  page.on("console", (m: ConsoleMessage) => void console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => void console.push(`pageerror: ${e.message}`));
  await page.goto(harness.scenarioUrl(0, "openai", { approval }));
  await expect.poll(() => page.evaluate("document.body.dataset.initialized ?? null"), { timeout: 15_000 }).toBe("true");
  const view = page.frames().find((f) => f !== page.mainFrame())!;
  return { page, view, console };
}

/** Starts recording the frame's openai:set_globals details (browser code as text: this file compiles without the DOM library). */
const RECORD = `window.__seen = []; addEventListener("openai:set_globals", (e) => window.__seen.push(e.detail.globals));`;

describe("window.openai in the harness", () => {
  it("has every global of the reference at load, before the widget's own script runs", async () => {
    const { page, view, console } = await open();
    await expect.poll(() => page.frameLocator("iframe").locator("li[data-gift]").count(), { timeout: 15_000 }).toBe(2);
    const globals = await view.evaluate(
      `Object.fromEntries(["theme","userAgent","locale","maxHeight","displayMode","safeArea","toolInput","toolOutput","toolResponseMetadata","widgetState"].map((k) => [k, k in window.openai ? window.openai[k] : "MISSING"]))`,
    );
    expect(globals).toEqual({
      theme: "light",
      userAgent: { device: { type: "desktop" }, capabilities: { hover: true, touch: false } },
      locale: "en-US",
      maxHeight: 480,
      displayMode: "inline",
      safeArea: { insets: { top: 0, bottom: 0, left: 0, right: 0 } },
      toolInput: INPUT,
      toolOutput: GIFTS,
      toolResponseMetadata: null,
      widgetState: null,
    });
    // The script that defines them is the first in the document, a classic one, ahead of the policy and of the widget's module.
    const order = await view.evaluate(`[...document.querySelectorAll("script, meta[http-equiv]")].map((e) => e.tagName + (e.type ? ":" + e.type : ""))`);
    expect(order).toEqual(["SCRIPT", "META", "SCRIPT:module"]);
    expect(await view.evaluate(`typeof window.__mcpgenOpenAiGlobals`)).toBe("undefined");
    expect(console.filter((l) => /Content Security Policy|Refused to|pageerror/i.test(l))).toEqual([]);
    await page.close();
  });

  it("serves the widget's Content-Security-Policy as resources/read has it: no hash added", async () => {
    const { page, view } = await open();
    const mcpApps = await browser.newPage();
    await mcpApps.goto(harness.scenarioUrl(0));
    await expect.poll(() => mcpApps.frameLocator("iframe").locator("li[data-gift]").count(), { timeout: 15_000 }).toBe(2);
    const served = mcpApps.frames().find((f) => f !== mcpApps.mainFrame())!;
    const policy = `document.querySelector('meta[http-equiv="Content-Security-Policy"]').getAttribute("content")`;
    const original = await served.evaluate<string>(policy);
    expect(await view.evaluate<string>(policy)).toBe(original);
    expect(original.match(/'sha256-/g)).toHaveLength(2);
    await mcpApps.close();
    await page.close();
  });

  it("sends openai:set_globals with only the keys that changed (display mode, widget state); none when nothing did", async () => {
    const { page, view } = await open();
    await view.evaluate(RECORD);
    const granted = await view.evaluate(`(async () => {
      const first = await window.openai.requestDisplayMode({ mode: "fullscreen" });
      await window.openai.setWidgetState({ picked: "Dice set" });
      await window.openai.requestDisplayMode({ mode: "fullscreen" });
      return first;
    })()`);
    expect(granted).toEqual({ mode: "fullscreen" });
    await until(async () => (await view.evaluate<number>("window.__seen.length")) >= 2, "the two set_globals events", { timeout: 5_000 });
    // A while longer: the repeated display mode changed nothing, so no third event may come.
    await sleep(200);
    expect(await view.evaluate("window.__seen")).toEqual([{ displayMode: "fullscreen" }, { widgetState: { picked: "Dice set" } }]);
    expect(await view.evaluate("[window.openai.displayMode, window.openai.widgetState]")).toEqual(["fullscreen", { picked: "Dice set" }]);
    expect(harness.events.filter((e) => e.kind === "setWidgetState").at(-1)).toEqual({ kind: "setWidgetState", params: { state: { picked: "Dice set" } } });
    await page.close();
  });

  it("callTool answers {result: string} (the text content), with structuredContent, content and isError beside it, and fires openai:tool_response", async () => {
    const { page, view } = await open();
    await view.evaluate(`window.__responses = []; addEventListener("openai:tool_response", (e) => window.__responses.push(e.detail.tool));`);
    const answer = await view.evaluate(`window.openai.callTool("gift_details", { name: "Dice set" })`);
    expect(answer).toEqual({ result: JSON.stringify(DICE), structuredContent: DICE, content: [{ type: "text", text: JSON.stringify(DICE) }], isError: false });
    expect(await view.evaluate("window.__responses")).toEqual([{ name: "gift_details", args: { name: "Dice set" } }]);
    await page.close();
  });

  it("refuses a call to a tool that is not openai/widgetAccessible (suggest_gifts: false), and says so", async () => {
    const before = harness.calls.length;
    const { page, view } = await open();
    const outcome = await view.evaluate(`window.openai.callTool("suggest_gifts", { occasion: "x", budget: 1 }).then(() => "called", (e) => e.message)`);
    expect(outcome).toBe("Tool suggest_gifts is not widget-accessible (its openai/widgetAccessible is false)");
    expect(harness.calls.slice(before)).toEqual([
      {
        tool: "suggest_gifts",
        arguments: { occasion: "x", budget: 1 },
        refused: "Tool suggest_gifts is not widget-accessible (its openai/widgetAccessible is false)",
      },
    ]);
    await page.close();
  });

  it("approval mode: toolInput and toolOutput are null at load; #approve sends the input, then the output, each as a set_globals of its own", async () => {
    const { page, view } = await open(true);
    expect(await view.evaluate("[window.openai.toolInput, window.openai.toolOutput, window.openai.toolResponseMetadata]")).toEqual([null, null, null]);
    await view.evaluate(RECORD);
    await page.click("#approve");
    // The gift list is the widget's answer to the output (the view's handling of the null input at load is the view's own).
    await expect.poll(() => page.frameLocator("iframe").locator("li[data-gift]").count(), { timeout: 15_000 }).toBe(2);
    // toolResponseMetadata stays null (the scenario has none): not sent.
    expect(await view.evaluate("window.__seen")).toEqual([{ toolInput: INPUT }, { toolOutput: GIFTS }]);
    expect(await page.locator("#approve").isDisabled()).toBe(true);
    await page.close();
  });

  it("takes notifyIntrinsicHeight (the frame follows), uploadFile and getFileDownloadUrl, requestClose, setOpenInAppUrl, sendFollowUpMessage", async () => {
    const before = harness.events.length;
    const { page, view } = await open();
    const outcome = await view.evaluate(`(async () => {
      window.openai.notifyIntrinsicHeight(222);
      const uploaded = await window.openai.uploadFile(new File(["hi"], "note.txt", { type: "text/plain" }));
      const url = await window.openai.getFileDownloadUrl(uploaded);
      window.openai.requestClose();
      window.openai.setOpenInAppUrl({ href: "https://gifts.example/ideas" });
      await window.openai.sendFollowUpMessage({ prompt: "More dice" });
      const missing = await window.openai.getFileDownloadUrl({ fileId: "nope" }).then(() => "found", (e) => e.message);
      return { uploaded, url, missing };
    })()`);
    expect(outcome).toEqual({ uploaded: { fileId: "file_1" }, url: { downloadUrl: "data:text/plain;base64,aGk=" }, missing: "no file nope" });
    await expect.poll(() => page.evaluate(`document.querySelector("iframe").style.height`)).toBe("222px");
    await expect
      .poll(() => harness.events.slice(before).map((e) => e.kind))
      .toEqual(["notifyIntrinsicHeight", "uploadFile", "requestClose", "setOpenInAppUrl", "sendFollowUpMessage"]);
    expect(harness.events.slice(before)[1]).toEqual({ kind: "uploadFile", params: { name: "note.txt", size: 2, type: "text/plain", fileId: "file_1" } });
    await page.close();
  });
});

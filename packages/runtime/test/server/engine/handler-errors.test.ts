import { describe, expect, it, vi } from "vitest";
import { MissingClientCapabilityError, rpcError, ToolError } from "../../../src/shared/errors.js";
import { handlerFailure, jsonRpcCode, passesThrough } from "../../../src/server/engine/handlerErrors.js";

describe("the JSON-RPC error pass-through rule", () => {
  it.each([
    ["a -32002 error", rpcError(-32002, "Resource not found"), -32002],
    ["the lowest reserved code", rpcError(-32768, "x"), -32768],
    ["the highest reserved code", rpcError(-32000, "x"), -32000],
    ["a plain object with code and message", { code: -32001, message: "x" }, -32001],
    ["a code above the range", rpcError(-31999, "x"), undefined],
    ["a code below the range", rpcError(-32769, "x"), undefined],
    ["a fractional code", rpcError(-32000.5, "x"), undefined],
    ["a code without a message", { code: -32002 }, undefined],
    ["an array with a code", Object.assign([], { code: -32002, message: "x" }), undefined],
    ["a plain Error", new Error("boom"), undefined],
    ["a ToolError", new ToolError("bad"), undefined],
    ["a string", "boom", undefined],
  ])("reads the code of %s", (_, error, code) => {
    expect(jsonRpcCode(error)).toBe(code);
  });

  it("passes coded errors through in both eras, a missing capability only on 2026-07-28", () => {
    const missing = new MissingClientCapabilityError({ sampling: {} }, "needs sampling");
    expect(passesThrough(rpcError(-32002, "x"), "legacy")).toBe(true);
    expect(passesThrough(rpcError(-32002, "x"), "modern")).toBe(true);
    expect(passesThrough(missing, "modern")).toBe(true);
    expect(passesThrough(missing, "legacy")).toBe(false);
    expect(passesThrough(new Error("x"), "modern")).toBe(false);
  });

  it("answers other errors -32603, naming the method and target, and reports them", () => {
    const onError = vi.fn();
    const error = new Error("disk full");
    const answer = handlerFailure(error, "resources/read", "notes", "legacy", onError);
    expect(answer).toMatchObject({ code: -32603, message: "resources/read notes failed: disk full" });
    expect(onError).toHaveBeenCalledWith(error, { method: "resources/read", name: "notes" });
    const coded = rpcError(-32002, "Resource not found");
    expect(handlerFailure(coded, "resources/read", "notes", "legacy", onError)).toBe(coded);
    expect(onError).toHaveBeenCalledTimes(1);
  });
});

/** A request for the engine without an SDK: the unit tests of the runtime's method modules (server/methods/). */
import type { Call } from "../../src/server/engine/engineCore.js";
import type { ServerDefinition } from "../../src/shared/definition.js";
import type { ProtocolEra } from "../../src/server/engine/sdk.js";
import { ListSwitch } from "../../src/server/engine/listSwitch.js";

export function fakeCall(era: ProtocolEra, options: { clientCapabilities?: Call["base"]["clientCapabilities"]; owner?: string } = {}): Call {
  const signal = new AbortController().signal;
  const noClient = () => Promise.reject(new Error("no client in this test"));
  return {
    era,
    owner: options.owner ?? "test",
    sdk: { mcpReq: { id: 1, method: "test", requestState: () => undefined, signal, send: noClient, notify: async () => {}, log: async () => {} } },
    base: {
      requestId: 1,
      era,
      clientCapabilities: options.clientCapabilities ?? {},
      log: async () => {},
      progress: async () => {},
      notifyResourceUpdated: async () => {},
      closeSSEStream: () => {},
      // The engine's own ListSwitch is what a served request gets; a fake call gets a switch of nothing.
      lists: new ListSwitch(definition({})),
    },
    legacyChannel: () => ({ ask: noClient }),
  };
}

export function definition(parts: Partial<ServerDefinition>): ServerDefinition {
  return { serverInfo: { name: "unit", version: "1.0.0" }, capabilities: {}, tools: [], resources: [], resourceTemplates: [], prompts: [], ...parts };
}

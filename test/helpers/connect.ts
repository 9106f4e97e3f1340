/** Connects a generated server to the official SDK Client over InMemoryTransport. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";

export async function connectInMemory(server: Server): Promise<{ sdk: Client; close: () => Promise<void> }> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const sdk = new Client({ name: "mcpgen-test", version: "1.0.0" });
  await Promise.all([server.connect(serverTransport), sdk.connect(clientTransport)]);
  return {
    sdk,
    close: async () => {
      await sdk.close();
      await server.close();
    },
  };
}

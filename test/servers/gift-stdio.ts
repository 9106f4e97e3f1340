/** The gift server over stdio, as a user's main.ts would start it. */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createServer } from "../../generated/gift-server/index.js";
import { giftHandlers } from "./gift.js";

const server = createServer(giftHandlers, { invalidArguments: process.env.INVALID_ARGUMENTS === "protocol-error" ? "protocol-error" : "tool-error" });
await server.connect(new StdioServerTransport());

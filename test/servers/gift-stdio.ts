/** The gift server over stdio, as a user's main.ts would start it. */
import { serveStdio } from "../../examples/gift-server/generated/gift-server/serve.js";
import { giftHandlers } from "./gift.js";

await serveStdio(giftHandlers, {
  invalidArguments: process.env.INVALID_ARGUMENTS === "protocol-error" ? "protocol-error" : "tool-error",
  ...(process.env.MAX_MESSAGE_BYTES ? { maxMessageBytes: Number(process.env.MAX_MESSAGE_BYTES) } : {}),
});

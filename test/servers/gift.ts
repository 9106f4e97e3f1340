/**
 * The gift server's handlers, as a user writes them: the example project's own
 * (examples/gift-server/src/handlers), wired by its generated handlers.ts.
 */
export { handlers as giftHandlers } from "../../examples/gift-server/generated/gift-server/handlers.js";

// This file is yours: mcpgen created it once and never changes it again.
// Handler of tool "gift_details" (gift-server). Its type comes from the generated server folder,
// so a schema change in the manifest shows up here as a type error. Its arguments are already
// checked against the inputSchema; throw ToolError to answer `isError: true` with its message.
import { ToolError, type GiftDetailsOutput, type ToolHandler } from "../../../../generated/gift-server/index.js";

/** What the gifts widget shows of each idea suggest_gifts gives. */
const DETAILS: Record<string, Omit<GiftDetailsOutput, "name">> = {
  "Board game: Catan": { description: "Trade and build on the island of Catan, for 3 to 4 players.", category: "boardgames" },
  "Dice set": { description: "Seven polyhedral dice for tabletop games.", category: "games" },
  "Book: The Hobbit": { description: "Tolkien's tale of Bilbo Baggins.", category: "books" },
};

export const giftDetails: ToolHandler<"gift_details"> = async ({ name }) => {
  const found = Object.hasOwn(DETAILS, name) ? DETAILS[name] : undefined;
  if (!found) throw new ToolError(`No gift named ${name}`);
  return { name, ...found };
};

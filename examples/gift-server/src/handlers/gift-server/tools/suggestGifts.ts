// This file is yours: mcpgen created it once and never changes it again.
// Handler of tool "suggest_gifts" (gift-server). Its type comes from the generated server folder,
// so a schema change in the manifest shows up here as a type error. Its arguments are already
// checked against the inputSchema; throw ToolError to answer `isError: true` with its message.
import { ToolError, type ToolHandler } from "../../../../generated/gift-server/index.js";

/** The ideas to choose from: a real server would ask a shop. */
const IDEAS = [
  { name: "Board game: Catan", price: 45 },
  { name: "Dice set", price: 20 },
  { name: "Book: The Hobbit", price: 15 },
];

export const suggestGifts: ToolHandler<"suggest_gifts"> = async ({ occasion, budget }) => {
  if (budget < 5) throw new ToolError(`No gift ideas under $${budget} for a ${occasion}`);
  return { gifts: IDEAS.filter((gift) => gift.price <= budget) };
};

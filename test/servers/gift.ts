/** Handlers for the bundled gift-server manifest, as a user would write them. */
import { ToolError, type Handlers } from "../../generated/gift-server/index.js";

export const giftHandlers: Handlers = {
  tools: {
    suggest_gifts: async ({ occasion, budget, recipient }) => {
      if (budget < 5) throw new ToolError(`No gift ideas under $${budget} for a ${occasion}`);
      const ideas = [
        { name: "Board game: Catan", price: 45 },
        { name: "Dice set", price: 20 },
        { name: "Book: The Hobbit", price: 15 },
      ];
      const gifts = ideas.filter((g) => g.price <= budget);
      return { gifts: recipient?.includes("nothing") ? [] : gifts };
    },
    gift_details: async ({ name }) => {
      const known: Record<string, { description: string; category: "boardgames" | "books" | "games" }> = {
        "Board game: Catan": { description: "Trade and build on the island of Catan, for 3 to 4 players.", category: "boardgames" },
        "Dice set": { description: "Seven polyhedral dice for tabletop games.", category: "games" },
        "Book: The Hobbit": { description: "Tolkien's tale of Bilbo Baggins.", category: "books" },
      };
      const found = Object.hasOwn(known, name) ? known[name] : undefined;
      if (!found) throw new ToolError(`No gift named ${name}`);
      return { name, ...found };
    },
  },
};

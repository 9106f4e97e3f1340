/**
 * The gifts widget: shows the ideas suggest_gifts found, and on a click asks the server for a
 * gift's details through the app-only tool gift_details. Bundled by `mcpgen generate` into the
 * HTML of ui://widget/gifts.html; the client it imports is generated from the manifest.
 */
import { createGiftsWidget } from "../../generated/gift-server/widgets/gifts.js";
import "./gifts.css";

const widget = createGiftsWidget();

const main = document.createElement("main");
const heading = document.createElement("h1");
heading.textContent = "Gift ideas";
const list = document.createElement("ul");
list.setAttribute("aria-live", "polite");
main.append(heading, list);
document.body.append(main);

widget.onToolInput(({ arguments: args }) => {
  heading.textContent = `Ideas for a ${args.occasion}, up to $${args.budget}`;
});

widget.onToolResult((result) => {
  list.replaceChildren();
  if (!result.ok) {
    list.append(item("error", result.error.message));
    return;
  }
  if (result.output.gifts.length === 0) list.append(item("empty", "No ideas within this budget."));
  for (const gift of result.output.gifts) {
    const li = document.createElement("li");
    li.dataset.gift = gift.name;
    const row = document.createElement("div");
    row.className = "gift";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = gift.name;
    const price = document.createElement("span");
    price.className = "price";
    price.textContent = `$${gift.price}`;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Details";
    const details = document.createElement("div");
    details.className = "details";
    // A listener's promise goes nowhere: showDetails shows its own errors.
    button.addEventListener("click", () => void showDetails(gift.name, button, details));
    row.append(name, price, button);
    li.append(row, details);
    list.append(li);
  }
});

await widget.connect();

async function showDetails(name: string, button: HTMLButtonElement, details: HTMLElement): Promise<void> {
  button.disabled = true;
  try {
    // Typed: gift_details is app-visible; its output is GiftDetailsOutput, checked.
    const info = await widget.call("gift_details", { name });
    details.textContent = `${info.description} (${info.category})`;
  } catch (error) {
    details.textContent = error instanceof Error ? error.message : String(error);
    details.classList.add("error");
  } finally {
    button.disabled = false;
  }
}

function item(kind: string, text: string): HTMLLIElement {
  const li = document.createElement("li");
  li.className = kind;
  li.textContent = text;
  return li;
}

/**
 * Type tests of the generated widget client (compiled by test/typecheck.test.ts, never run): each
 * `@ts-expect-error` must meet an error, or the compile fails.
 */
import { createGiftsWidget } from "../../examples/gift-server/generated/gift-server/widgets/gifts.js";

export async function typed(): Promise<void> {
  const widget = createGiftsWidget<{ favorite?: string }>();

  widget.onToolInput((input) => {
    // The arguments of the tool that opened it, narrowed by name.
    if (input.tool === "suggest_gifts") {
      const budget: number = input.arguments.budget;
      void budget;
      // @ts-expect-error: suggest_gifts has no argument `price`
      void input.arguments.price;
    }
  });

  widget.onToolResult((result) => {
    if (result.ok) {
      const price: number | undefined = result.output.gifts[0]?.price;
      void price;
      // @ts-expect-error: SuggestGiftsOutput has no field `total`
      void result.output.total;
    } else {
      const message: string = result.error.message;
      void message;
    }
  });

  const details = await widget.call("gift_details", { name: "Dice set" });
  const category: "boardgames" | "books" | "games" = details.category;
  void category;
  // @ts-expect-error: GiftDetailsOutput has no field `price`
  void details.price;

  // @ts-expect-error: no tool of that name
  await widget.call("no_such_tool", {});
  // @ts-expect-error: `name` is a string
  await widget.call("gift_details", { name: 42 });
  // @ts-expect-error: suggest_gifts is model-only (visibility [model]): a widget may not call it
  await widget.call("suggest_gifts", { occasion: "birthday", budget: 10 });

  // ChatGPT's widgetState, typed by the widget's own State.
  const favorite: string | undefined = widget.openai?.widgetState?.favorite;
  void favorite;
  // @ts-expect-error: State has no `other`
  void widget.openai?.widgetState?.other;
}

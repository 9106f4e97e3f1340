/**
 * JavaScript inlined in an HTML `<script>` element (a widget's bundle, the harness's pages). The
 * HTML parser reads the element's text before JavaScript does: `</script` ends it, and `<!--`
 * starts its escaped state, in which a later `<script` makes the next `</script>` not end it
 * (the rest of the page becomes script, and the widget breaks). So no `<!--` and no `</script`
 * may reach the page, wherever they are in the code.
 *
 * esbuild is told to lower template literals to strings (`INLINE_SCRIPT_BUILD`): a tagged
 * template's raw text (`String.raw`, a JSON manifest value) then becomes a string literal too, so
 * that every `<` left in the bundle is in a string, a regular expression, a comment, or code
 * (where esbuild never prints `<!--`: it writes `a< !--b`). In all of these `\x3C` means `<`.
 */

/** esbuild options for code that will be inlined: no template literals (their raw text cannot be escaped). */
export const INLINE_SCRIPT_BUILD = { supported: { "template-literal": false } } as const;

/**
 * Code as it may sit inside `<script>...</script>`: `<!--` as `\x3C!--` and `</script` as
 * `<\/script`, any case; a backslash before them (`\<`, an identity escape) is folded in.
 */
export function inlineScript(js: string): string {
  return js.replace(/(\\*)<(!--|\/script)/gi, (_found: string, slashes: string, rest: string) => {
    // An odd run of backslashes escapes the `<` itself: `\<` means `<` where it can appear.
    const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
    return rest === "!--" ? `${kept}\\x3C!--` : `${kept}<\\${rest}`;
  });
}

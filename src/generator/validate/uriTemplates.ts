/**
 * What the generated server cannot serve in a `uriTemplate` (it matches RFC 6570 level 1,
 * packages/runtime/src/shared/uriTemplate.ts), each with the level-1 template to write instead:
 * operators (`{+path}`, `{?q}`, `{/seg}`...) and modifiers (`{list*}`, `{name:3}`) have a level-1
 * form for the common case, which the message spells out with the variable's own name.
 */

const NAME = /^[A-Za-z0-9_]+$/;

export function uriTemplateProblems(template: string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const m of template.matchAll(/\{([^{}]*)\}/g)) {
    const body = m[1]!;
    if (!NAME.test(body)) {
      problems.push(unsupported(body));
      continue;
    }
    if (seen.has(body)) problems.push(`variable {${body}} appears twice`);
    else seen.add(body);
  }
  // Only between two level-1 expressions: `{path}{?q}` gets the operator's fix, which adds the literal.
  if (/\{[A-Za-z0-9_]+\}\{[A-Za-z0-9_]+\}/.test(template))
    problems.push("two expressions side by side ({a}{b}) cannot be told apart in a URI; put a literal between them");
  const stripped = template.replace(/\{[^{}]*\}/g, "");
  if (/[{}]/.test(stripped)) problems.push("unbalanced { or } in the template");
  if (problems.length === 0 && seen.size === 0) problems.push("a template needs at least one {variable}; a fixed URI is a resource");
  return problems;
}

/** Why `{body}` is refused, and the level-1 form to write. */
function unsupported(body: string): string {
  const operator = /^[+#./;?&]/.test(body) ? body[0]! : "";
  const names = body
    .slice(operator.length)
    .split(",")
    .map((n) => n.replace(/\*$|:\d+$/, ""));
  const head = `expression {${body}} is beyond RFC 6570 level 1, which is what mcpgen serves`;
  if (!names.every((n) => NAME.test(n))) return `${head}: use expressions like {id} (letters, digits, _)`;
  const vars = (join: string, each: (n: string) => string) => names.map(each).join(join);
  switch (operator) {
    case "+":
      return `${head}; a level-1 value may hold / and ?: clients send them percent-encoded (%2F, %3F) and the handler gets them decoded, so write ${vars(",", (n) => `{${n}}`)}; or, for a path of known depth, one variable per segment ({dir}/{name})`;
    case "#":
      return `${head}: write the # yourself: #${vars(",", (n) => `{${n}}`)}`;
    case ".":
      return `${head}: write the dot yourself: ${vars("", (n) => `.{${n}}`)}`;
    case "/":
      return `${head}: write the slash yourself: ${vars("", (n) => `/{${n}}`)} (a value's own / is sent as %2F)`;
    case ";":
      return `${head}: write the parameters yourself: ${vars("", (n) => `;${n}={${n}}`)}`;
    case "?":
      return `${head}: write the query yourself: ?${vars("&", (n) => `${n}={${n}}`)} (every variable is then required; declare optional inputs as a tool's arguments)`;
    case "&":
      return `${head}: write the query yourself: ${vars("", (n) => `&${n}={${n}}`)}`;
    default:
      return names.length > 1
        ? `${head}: one variable per expression, with a literal between them: ${vars(",", (n) => `{${n}}`)}`
        : `${head}: modifiers (* explode, :N prefix) are not served; write {${names[0]!}}`;
  }
}

/**
 * Emits, per widget, `widgets/<name>.ts`: the typed widget client (`create<Name>Widget()`: the
 * arguments of the tools that open it, their outputs, the tools it may call), and
 * `widgets/<name>.checks.ts`: the output checks of those tools, compiled by ajv here, at generate
 * time, into plain functions (a view's Content-Security-Policy forbids compiling them there).
 */
import type { ServerModel, ToolModel, WidgetModel } from "../model/types.js";
import { docComment, jsonTemplate, propertyKey, stringLiteral } from "../print/literal.js";
import { CodeFile } from "../print/codeFile.js";
import { moduleResolver } from "../model/modules.js";
import { codeFile, header, LOCAL, type OutputFile } from "./common.js";
import { CODE_POINT_LENGTH, PATTERN_ENGINE, standaloneValidators } from "./standalone.js";
import type { Json } from "../../common/objects.js";

export function emitWidgets(model: ServerModel): OutputFile[] {
  if (model.widgets.length === 0) return [];
  return [...model.widgets.flatMap((widget) => [emitWidgetClient(model, widget), emitWidgetChecks(model, widget)]), emitScenarios(model)];
}

/**
 * `widgets/scenarios.ts`: for each widget, each example of a tool that opens it (its arguments
 * and result), or its first argument-free call: what `mcpgen/harness` mounts the widget with.
 */
function emitScenarios(model: ServerModel): OutputFile {
  const file = codeFile(model, "widgets/scenarios.ts");
  const scenarios = scenariosOf(model);
  // JSON text, parsed: manifest values stay data (a `__proto__` key is a key).
  file.exportDeclaration({
    doc: [
      "What the widgets of this server are opened with in `mcpgen/harness`: each example of a tool that opens a widget (its arguments, and its result when the example has one; without, the harness calls the tool).",
      '@example\nimport { serveHarness } from "mcpgen/harness";\nconst harness = await serveHarness({ server: createServerFactory(handlers), scenarios });',
    ],
    kind: "const",
    name: "scenarios",
    text: `: readonly { widget: string; tool: string; arguments: { [key: string]: unknown }; result?: unknown }[] = JSON.parse(${jsonTemplate(JSON.stringify(scenarios))});`,
  });
  return { path: file.path, content: file.render() };
}

/** Each example of each tool that opens a widget, in manifest order: the harness's scenarios (`mcpgen dev` serves them too). */
export function scenariosOf(model: ServerModel): { widget: string; tool: string; arguments: Json; result?: Json }[] {
  const scenarios: { widget: string; tool: string; arguments: Json; result?: Json }[] = [];
  for (const widget of model.widgets) {
    for (const name of widget.tools) {
      const tool = model.tools.find((t) => t.name === name)!;
      for (const example of tool.examples)
        scenarios.push({ widget: widget.uri, tool: name, arguments: example.arguments, ...(example.result === undefined ? {} : { result: example.result }) });
    }
  }
  return scenarios;
}

/** The tools a widget's view may call: those whose visibility includes `app`. */
function callableTools(model: ServerModel): ToolModel[] {
  return model.tools.filter((t) => t.visibility.includes("app"));
}

/** The tools whose outputs a widget checks: those that open it, then those it may call. */
function checkedTools(model: ServerModel, widget: WidgetModel): ToolModel[] {
  const names = new Set([...widget.tools, ...callableTools(model).map((t) => t.name)]);
  return model.tools.filter((t) => names.has(t.name) && t.output !== undefined);
}

function emitWidgetClient(model: ServerModel, widget: WidgetModel): OutputFile {
  const file = codeFile(model, `widgets/${widget.fileName}.ts`);
  const prefix = widget.typeName;
  const names = {
    inputs: `${prefix}ToolInputs`,
    outputs: `${prefix}ToolOutputs`,
    callable: `${prefix}CallableTools`,
    widget: `${prefix}Widget`,
    create: `create${prefix}Widget`,
  };
  file.declare(...Object.values(names));
  const type = (n: string) => file.importType(LOCAL.types, n);
  const runtime = widget.sdk === "ext-apps" ? LOCAL.runtimeWidgetExtApps : LOCAL.runtimeWidget;
  const result = file.importType(LOCAL.runtimeShared, "CallToolResult");
  const opening = widget.tools.map((n) => model.tools.find((t) => t.name === n)!);
  const output = (t: ToolModel) => (t.output ? type(t.output.typeName) : result);
  const members = (rows: string[]) => (rows.length ? `{\n${rows.join("")}}` : "{}");

  file.exportDeclaration({
    doc: [`The arguments of the tools that open widget ${widget.name} (\`${widget.uri}\`), by tool: \`toolInput\` narrows on \`tool\`.`],
    kind: "interface",
    name: names.inputs,
    text: ` ${members(opening.map((t) => `  ${propertyKey(t.name)}: ${type(t.input.typeName)};\n`))}`,
  });
  file.exportDeclaration({
    doc: ["What those tools answer, by tool: the structured output, or the CallToolResult of a tool without outputSchema."],
    kind: "interface",
    name: names.outputs,
    text: ` ${members(opening.map((t) => `  ${propertyKey(t.name)}: ${output(t)};\n`))}`,
  });
  file.exportDeclaration({
    doc: ["The tools the widget may call (their visibility includes `app`), with their arguments and what a call resolves to."],
    kind: "interface",
    name: names.callable,
    text: ` ${members(callableTools(model).map((t) => `${docComment([t.description ?? ""], "  ")}  ${propertyKey(t.name)}: { input: ${type(t.input.typeName)}; output: ${output(t)} };\n`))}`,
  });
  const widgetType = file.importType(runtime, "Widget");
  const options = file.importType(runtime, "WidgetOptions");
  file.exportDeclaration({
    doc: [`The client of widget ${widget.name}; \`State\` is what it keeps in ChatGPT's widgetState.`],
    kind: "type",
    name: names.widget,
    text: `<State = unknown> = ${widgetType}<${names.inputs}, ${names.outputs}, ${names.callable}, State>;`,
  });
  const create = file.importValue(runtime, "createWidget");
  const checks = file.importValue(`./widgets/${widget.fileName}.checks.js`, "checks");
  const list = (values: string[]) => `[${values.map(stringLiteral).join(", ")}]`;
  file.exportDeclaration({
    doc: [
      `Makes the client of widget ${widget.name}: register handlers, then \`connect()\`.`,
      `@example\nconst widget = ${names.create}();\nwidget.onToolResult((r) => { if (r.ok) render(r.output); });\nawait widget.connect();`,
    ],
    kind: "function",
    name: names.create,
    text: `<State = unknown>(options?: ${options}): ${names.widget}<State> {\n  return ${create}<${names.inputs}, ${names.outputs}, ${names.callable}, State>({ name: ${stringLiteral(widget.name)}, opens: ${list(widget.tools)}, callable: ${list(callableTools(model).map((t) => t.name))}, checks: ${checks} }, options);\n}`,
  });
  return { path: file.path, content: file.render() };
}

function emitWidgetChecks(model: ServerModel, widget: WidgetModel): OutputFile {
  // ajv's standalone code is plain JavaScript: the file is not type-checked (the pragma must lead it).
  const path = `widgets/${widget.fileName}.checks.ts`;
  const file = new CodeFile(
    path,
    `${header(model)}// @ts-nocheck: ajv's standalone validators, compiled by mcpgen at generate time (a view may not compile code at run time).\n`,
    // Its imports written for its place and the runtime's mode, as codeFile() does for the others.
    moduleResolver(path, model.options.runtime ?? "package"),
  );
  const describe = file.importValue(LOCAL.runtimeShared, "describeErrors");
  const tools = checkedTools(model, widget);
  // What the server's validators accept, printed (standalone.ts).
  const printed = standaloneValidators(new Map(tools.map((tool) => [tool.name, tool.wire.outputSchema as object])), model.patterns, `widget ${widget.name}`);
  const rows = tools.map((tool) => {
    const fn = `exports.${printed.names.get(tool.name)!}`;
    return `  ${propertyKey(tool.name)}: (value) => (${fn}(value) ? undefined : ${describe}(${fn}.errors)),\n`;
  });
  // The names the printed code calls: patterns on JavaScript's RegExp where mcpgen proved them
  // linear, else RE2JS (only then bundled), with no cap on the text (the view checks its own
  // server's output, and a throw would break it).
  file.declare(CODE_POINT_LENGTH, PATTERN_ENGINE);
  const lines: string[] = [];
  if (printed.usesRe2) {
    const planEngine = file.importValue(LOCAL.runtimeSharedRe2, "patternEngineOnRe2");
    lines.push(`const ${PATTERN_ENGINE} = ${planEngine}(JSON.parse(${jsonTemplate(JSON.stringify(model.patterns))}), { maxInput: Infinity });`);
  } else lines.push(`const ${PATTERN_ENGINE} = (source) => new RegExp(source, "u");`);
  lines.push(
    `const ${CODE_POINT_LENGTH} = ${file.importValue(LOCAL.runtimeShared, "codePointLength")};`,
    ...printed.helpers,
    "const exports = {};",
    printed.code,
  );
  file.print(lines.join("\n"));
  file.exportDeclaration({
    doc: ["Each tool's output check: undefined when valid, else the problems in words."],
    kind: "const",
    name: "checks",
    text: ` = ${rows.length ? `{\n${rows.join("")}}` : "{}"};`,
    blankLineBefore: false,
  });
  return { path: file.path, content: file.render() };
}

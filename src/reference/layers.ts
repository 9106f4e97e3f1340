/**
 * The layers of mcpgen's source and of its runtime package, in one place: what each holds and
 * what it may import. test/unit/layers.test.ts and packages/runtime/test/layers.test.ts check
 * every import against them; docs/reference/source-files.md is written from them, with each
 * file's first doc line.
 */

/** A layer of src/: a folder (its files and subfolders) or one file. */
export interface SourceLayer {
  layer: string;
  what: string;
}

/**
 * The layers of src/, lowest first: a file may import its own layer and those before it (the
 * most specific layer names a file's). The generator's stages come in the order they build on
 * each other, which is the order a run takes them but for bundle: it emits a widget's client to
 * bundle it, so it comes after emit, and a run bundles first, then emits once with the HTML.
 */
export const SOURCE_LAYERS: readonly SourceLayer[] = [
  { layer: "common", what: "What every layer uses: diagnostics and their printing, the version, names, paths, JSON values, redaction." },
  { layer: "jsonSchema", what: "JSON Schema as every stage reads it: keywords, references, what an object admits, patterns and their cost." },
  { layer: "generator/load", what: "Stage 1, load: YAML text to a parsed manifest with source positions, the parse cache, where manifests are." },
  { layer: "generator/validate", what: "Stage 2, validate: every problem of a manifest, from the field tables." },
  {
    layer: "generator/model",
    what: "Stage 3, model: the normalized model (identifiers, refs, the definition's value, the stubs' layout), and a server folder's modules and public API.",
  },
  { layer: "generator/print", what: "Stage 4, print: the printer that tracks imports, the one literal function, the templates." },
  { layer: "generator/emit", what: "Stage 5, emit: one emitter per artifact; the runtime's copy in vendor mode." },
  { layer: "generator/bundle", what: "Stage 6, bundle: each widget into one HTML document, with its client emitted; a run bundles before its one emit." },
  { layer: "generator/plan", what: "Stage 7, plan: the output compared with the disk, read only (what --check shows)." },
  { layer: "generator/stubs", what: "Stage 8, stubs: the user's handler files, created once and merged, never overwritten." },
  { layer: "generator/write", what: "Stage 9, write: the plan applied atomically; the recovery of a killed run." },
  { layer: "generator", what: "The run: compile (load, validate, model), bundle, emit, plan, stubs, write, with the run records around it." },
  { layer: "config", what: "mcpgen.config.json: options and warning levels." },
  { layer: "harness", what: "mcpgen/harness: a widget in a mock MCP Apps host, in a browser." },
  { layer: "react", what: "mcpgen/react: hooks for widget views, typed by the generated client." },
  { layer: "commands", what: "What each command does besides generating: check, trace, diff, pull, mock, dev, lint, init." },
  { layer: "cli", what: "The one command line: each command's options, help and exit codes, on one table." },
  { layer: "reference", what: "These tables, and the reference pages and published JSON Schemas written from mcpgen's tables." },
  { layer: "index.ts", what: "The library entry (mcpgen)." },
];

/** A layer folder of the runtime package's src/: what it may import of the runtime, and of npm. */
export interface RuntimeLayer {
  folder: string;
  what: string;
  /** The runtime folders it may import. */
  layers: readonly string[];
  /** Those it may import types from only. */
  typeLayers?: readonly string[];
  /** The npm packages it may import (`node:*`: Node's own modules). */
  packages: readonly string[];
}

/**
 * The runtime's layer folders. `server` is the core's assembly (server.ts, engine.ts, the entry);
 * `server/engine` what the core builds on, the parts' contracts included (engine/parts.ts). The
 * parts (`server/tasks`, `server/auth`, `server/redis`) are imported by no core folder, not even
 * for types: generated code hands them in, so a server without them never loads them and a
 * vendored copy of the runtime leaves them out.
 */
export const RUNTIME_LAYERS: readonly RuntimeLayer[] = [
  {
    folder: "shared",
    what: "What servers, clients and widgets all name: errors, MCP's types, the definition's type, validation, patterns in linear time.",
    layers: ["shared"],
    packages: ["ajv", "ajv/dist/2020.js", "re2js"],
  },
  { folder: "client", what: "The engine of a generated client.", layers: ["shared", "client"], packages: ["@modelcontextprotocol/client"] },
  {
    folder: "widget",
    what: "The engine of a generated widget client: mcpgen's MCP Apps bridge, window.openai, the official App.",
    layers: ["shared", "widget"],
    packages: ["@modelcontextprotocol/ext-apps", "zod"],
  },
  {
    folder: "server",
    what: "The server core's assembly: the factory of SDK Servers and the method table.",
    layers: ["shared", "server", "server/engine", "server/methods"],
    packages: ["@modelcontextprotocol/server"],
  },
  {
    folder: "server/engine",
    what: "What the core builds on: the request context, lists, rounds, request state, the pattern translator, the parts' contracts.",
    layers: ["shared", "server/engine"],
    // The pattern translator (patternPlans.ts): forms handlers build at run time are planned there.
    packages: ["@modelcontextprotocol/server", "@modelcontextprotocol/server/stdio", "@eslint-community/regexpp", "re2js"],
  },
  {
    folder: "server/methods",
    what: "One module per capability, each giving its rows of the method table.",
    layers: ["shared", "server/engine", "server/methods"],
    packages: [],
  },
  {
    folder: "server/state",
    what: "Where a factory's shared state lives: the Redis part when given and asked for, else memory.",
    layers: ["shared", "server/engine", "server/state"],
    packages: [],
  },
  {
    folder: "server/http",
    what: "Streamable HTTP on the web's Request and Response, for every platform: the endpoint (both eras, Host and Origin, CORS, sessions, the gate) and the fetch handler.",
    layers: ["shared", "server/engine", "server/state", "server/http"],
    typeLayers: ["server"],
    packages: [],
  },
  {
    folder: "server/durable",
    what: "Tasks kept in a Cloudflare Durable Object's storage: the memory store writing through to it.",
    layers: ["shared", "server/engine", "server/tasks", "server/durable"],
    packages: [],
  },
  {
    folder: "server/lambda",
    what: "A fetch handler on AWS Lambda: function URL and HTTP API events to Request, the Response back, buffered.",
    layers: ["server/lambda"],
    packages: [],
  },
  {
    folder: "server/node",
    what: "Serving on Node.js: stdio, and the Streamable HTTP endpoint on node:http with its connection limits.",
    layers: ["shared", "server/engine", "server/state", "server/http", "server/node"],
    typeLayers: ["server"],
    packages: ["node:*"],
  },
  {
    folder: "server/tasks",
    what: "The tasks part: tool calls that run as tasks, their methods and listen streams, the in-memory store.",
    layers: ["shared", "server/engine", "server/tasks"],
    packages: [],
  },
  {
    folder: "server/auth",
    what: "The authorization part: the gate of a protected server on Streamable HTTP (jwt.ts: the part that loads jose, for auth.jwt).",
    layers: ["shared", "server/engine", "server/auth"],
    packages: ["jose"],
  },
  {
    folder: "server/redis",
    what: "The Redis part: tasks, switched lists and events shared by replicas.",
    layers: ["shared", "server/engine", "server/tasks", "server/redis"],
    packages: [],
  },
  {
    folder: ".",
    what: "The package's codegen entry: what mcpgen's generator shares with the runtime (RE2JS handed in as it loads).",
    layers: ["shared", "server", "server/engine", "server/methods", "server/http"],
    packages: ["re2js"],
  },
];

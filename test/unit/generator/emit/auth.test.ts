/** What the emitters print for `auth:`: definition.auth, securitySchemes in the fixtures, verifyToken and the auth types. */
import { describe, expect, it } from "vitest";
import { definitionValue } from "../../../../src/generator/model/definition.js";
import { emitServerFiles } from "../../../../src/generator/emit/index.js";
import { emitIndex } from "../../../../src/generator/emit/indexFile.js";
import { emitServer } from "../../../../src/generator/emit/server.js";
import { modelOf } from "../../../helpers/model.js";

const SERVER = "server: {name: s, version: '1', title: S}\n";
const AUTH = (verifier: string, more = "") =>
  `auth:\n  resource: 'https://mcp.example.com'\n  authorizationServers: ['https://as.example.com']\n  scopesSupported: [r, w]\n  defaultScopes: [r]\n${more}  ${verifier}\n`;
const JWT = "jwt: {issuer: 'https://as.example.com', jwksUri: 'https://as.example.com/jwks'}";
const ENTRIES = `tools:
  - {name: read, inputSchema: {type: object}}
  - {name: write, inputSchema: {type: object}, scopes: [r, w]}
  - {name: hello, inputSchema: {type: object}, auth: none}
resources:
  - {uri: 'x://about', name: about, text: hi, auth: none}
  - {uri: 'x://data', name: data, scopes: [w]}
resourceTemplates:
  - {uriTemplate: 'x://items/{id}', name: item}
prompts:
  - {name: p, messages: [{role: user, content: {type: text, text: hi}}]}
`;

describe("definition.auth", () => {
  it("is the contract's AuthDefinition: settings resolved, every entry's rule by name (resources by URI)", async () => {
    const model = await modelOf(`${SERVER}${AUTH(JWT, "  hideUnauthorized: true\n")}${ENTRIES}`);
    expect(definitionValue(model).auth).toEqual({
      resource: "https://mcp.example.com/",
      authorizationServers: ["https://as.example.com"],
      scopesSupported: ["r", "w"],
      defaultScopes: ["r"],
      resourceName: "S",
      verifier: { kind: "jwt", issuer: "https://as.example.com", jwksUri: "https://as.example.com/jwks", algorithms: ["RS256", "ES256"] },
      hideUnauthorized: true,
      tools: { read: ["r"], write: ["r", "w"], hello: "none" },
      resources: { "x://about": "none", "x://data": ["w"] },
      resourceTemplates: { item: ["r"] },
      prompts: { p: ["r"] },
    });
  });

  it("leaves hideUnauthorized out when false, and is absent on a server without auth", async () => {
    const auth = definitionValue(await modelOf(`${SERVER}${AUTH("verifier: handler")}${ENTRIES}`)).auth;
    expect(auth).toMatchObject({ verifier: { kind: "handler" } });
    expect(auth).not.toHaveProperty("hideUnauthorized");
    expect(definitionValue(await modelOf(`${SERVER}tools:\n  - {name: t, inputSchema: {type: object}}\n`))).not.toHaveProperty("auth");
  });
});

describe("the tools/list fixture", () => {
  it("carries each tool's securitySchemes, top level and in _meta", async () => {
    const files = emitServerFiles(await modelOf(`${SERVER}${AUTH(JWT)}${ENTRIES}`));
    const list = JSON.parse(files.find((f) => f.path === "fixtures/tools-list.json")!.content) as { tools: Record<string, unknown>[] };
    expect(list.tools.map((t) => [t.name, t.securitySchemes, t._meta])).toEqual([
      ["read", [{ type: "oauth2", scopes: ["r"] }], { securitySchemes: [{ type: "oauth2", scopes: ["r"] }] }],
      ["write", [{ type: "oauth2", scopes: ["r", "w"] }], { securitySchemes: [{ type: "oauth2", scopes: ["r", "w"] }] }],
      ["hello", [{ type: "noauth" }], { securitySchemes: [{ type: "noauth" }] }],
    ]);
  });
});

describe("server.ts and index.ts", () => {
  const cases: [string, { given: string; verifyToken: boolean; authTypes: boolean }][] = [
    ["verifier: handler asks for verifyToken", { given: `${SERVER}${AUTH("verifier: handler")}`, verifyToken: true, authTypes: true }],
    ["a jwt verifier needs no handler", { given: `${SERVER}${AUTH(JWT)}`, verifyToken: false, authTypes: true }],
    ["no auth: neither", { given: SERVER, verifyToken: false, authTypes: false }],
  ];
  it.each(cases)("%s", async (_, { given, verifyToken, authTypes }) => {
    const model = await modelOf(given);
    const server = emitServer(model)[0]!.content;
    const index = emitIndex(model)[0]!.content;
    expect(server.includes("  verifyToken: TokenVerifier;\n")).toBe(verifyToken);
    // A required handler: createServer takes no `= {}` default then.
    expect(server.includes("createServer(handlers: Handlers = {}")).toBe(!verifyToken);
    for (const name of ["AuthContext", "TokenVerifier"]) {
      expect(new RegExp(`^export type \\{[^}]*\\b${name}\\b`, "m").test(server), `server.ts ${name}`).toBe(authTypes);
      expect(new RegExp(`^export \\{[^}]*type ${name}\\b[^}]*\\} from "\\./server\\.js";`, "m").test(index), `index.ts ${name}`).toBe(authTypes);
    }
  });
});

/** model/auth.ts and the builders' `access`: what the model decides of `auth:` and of each entry's rule. */
import { describe, expect, it } from "vitest";
import type { AuthModel, ServerModel } from "../../../../src/generator/model/types.js";
import { buildWidgets } from "../../../../src/generator/model/widgets.js";
import { contextOf, modelOf } from "../../../helpers/model.js";
import { tempProject } from "../../../helpers/tmp.js";

const SERVER = "server: {name: s, version: '1'}\n";
const AUTH = "auth:\n  resource: 'https://mcp.example.com'\n  authorizationServers: ['https://as.example.com']\n";
const JWT = "  jwt: {issuer: 'https://as.example.com', jwksUri: 'https://as.example.com/jwks'}\n";

describe("the server's auth", () => {
  const cases: [string, { given: string; want: AuthModel | undefined }][] = [
    ["no auth: block", { given: SERVER, want: undefined }],
    [
      "jwt with the default algorithms, the resource normalized, resourceName from the server's name",
      {
        given: `${SERVER}${AUTH}${JWT}`,
        want: {
          resource: "https://mcp.example.com/",
          authorizationServers: ["https://as.example.com"],
          resourceName: "s",
          verifier: { kind: "jwt", issuer: "https://as.example.com", jwksUri: "https://as.example.com/jwks", algorithms: ["RS256", "ES256"] },
          hideUnauthorized: false,
        },
      },
    ],
    [
      "every setting given; resourceName from the title",
      {
        given: `server: {name: s, version: '1', title: Gifts}\nauth:\n  resource: 'HTTPS://MCP.Example.com:443/a/../mcp'\n  authorizationServers: ['https://as.example.com/']\n  scopesSupported: [r, w]\n  defaultScopes: [r]\n  hideUnauthorized: true\n  resourceDocumentation: 'https://docs.example.com'\n  jwt: {issuer: 'https://as.example.com/', jwksUri: 'https://as.example.com/jwks', algorithms: [EdDSA, PS256]}\n`,
        want: {
          resource: "https://mcp.example.com/mcp",
          authorizationServers: ["https://as.example.com/"],
          scopesSupported: ["r", "w"],
          defaultScopes: ["r"],
          resourceName: "Gifts",
          resourceDocumentation: "https://docs.example.com",
          verifier: { kind: "jwt", issuer: "https://as.example.com/", jwksUri: "https://as.example.com/jwks", algorithms: ["EdDSA", "PS256"] },
          hideUnauthorized: true,
        },
      },
    ],
    [
      "introspection, and the manifest's resourceName",
      {
        given: `${SERVER}${AUTH}  resourceName: My API\n  introspection: {endpoint: 'https://as.example.com/introspect', clientId: rs, clientSecretEnv: RS_SECRET}\n`,
        want: {
          resource: "https://mcp.example.com/",
          authorizationServers: ["https://as.example.com"],
          resourceName: "My API",
          verifier: { kind: "introspection", endpoint: "https://as.example.com/introspect", clientId: "rs", clientSecretEnv: "RS_SECRET" },
          hideUnauthorized: false,
        },
      },
    ],
    [
      "your own verifier",
      {
        given: `${SERVER}${AUTH}  verifier: handler\n`,
        want: {
          resource: "https://mcp.example.com/",
          authorizationServers: ["https://as.example.com"],
          resourceName: "s",
          verifier: { kind: "handler" },
          hideUnauthorized: false,
        },
      },
    ],
  ];
  it.each(cases)("%s", async (_, { given, want }) => {
    expect((await modelOf(given)).auth).toEqual(want);
  });
});

/** Every entry's rule, by kind and name (resources by URI). */
function rules(model: ServerModel): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const t of model.tools) out[`tool ${t.name}`] = t.access;
  for (const r of model.resources) out[`resource ${r.uri}`] = r.access;
  for (const t of model.resourceTemplates) out[`template ${t.name}`] = t.access;
  for (const p of model.prompts) out[`prompt ${p.name}`] = p.access;
  return out;
}

const ENTRIES = `tools:
  - {name: given, inputSchema: {type: object}, scopes: [w]}
  - {name: empty, inputSchema: {type: object}, scopes: []}
  - {name: defaulted, inputSchema: {type: object}}
  - {name: public, inputSchema: {type: object}, auth: none}
resources:
  - {uri: 'x://a', name: a, scopes: [r, w]}
  - {uri: 'x://b', name: b, text: hi, auth: none}
resourceTemplates:
  - {uriTemplate: 'x://t/{id}', name: t}
prompts:
  - {name: p, scopes: [w]}
`;

describe("each entry's access rule", () => {
  const cases: [string, { given: string; want: Record<string, unknown> }][] = [
    [
      "defaultScopes applied where an entry names none",
      {
        given: `${SERVER}${AUTH}  defaultScopes: [r]\n${JWT}${ENTRIES}`,
        want: {
          "tool given": ["w"],
          "tool empty": [],
          "tool defaulted": ["r"],
          "tool public": "none",
          "resource x://a": ["r", "w"],
          "resource x://b": "none",
          "template t": ["r"],
          "prompt p": ["w"],
        },
      },
    ],
    [
      "without defaultScopes: any valid token",
      {
        given: `${SERVER}${AUTH}${JWT}${ENTRIES}`,
        want: {
          "tool given": ["w"],
          "tool empty": [],
          "tool defaulted": [],
          "tool public": "none",
          "resource x://a": ["r", "w"],
          "resource x://b": "none",
          "template t": [],
          "prompt p": ["w"],
        },
      },
    ],
    [
      "a server without auth: no rules",
      {
        given: `${SERVER}tools:\n  - {name: t, inputSchema: {type: object}}\nresources:\n  - {uri: 'x://a', name: a}\n`,
        want: { "tool t": undefined, "resource x://a": undefined },
      },
    ],
  ];
  it.each(cases)("%s", async (_, { given, want }) => {
    expect(rules(await modelOf(given))).toEqual(want);
  });
});

describe("what goes on the wire", () => {
  it("keeps scopes and auth off every entry, and gives each tool its securitySchemes, top level and in _meta after its own keys", async () => {
    const model = await modelOf(
      `${SERVER}${AUTH}  defaultScopes: [r]\n${JWT}tools:\n  - {name: a, inputSchema: {type: object}, _meta: {x: 1}, scopes: [w]}\n  - {name: b, inputSchema: {type: object}, auth: none}\n  - {name: c, inputSchema: {type: object}}\nresources:\n  - {uri: 'x://a', name: a, scopes: [r]}\nresourceTemplates:\n  - {uriTemplate: 'x://t/{id}', name: t, auth: none}\nprompts:\n  - {name: p, scopes: [r]}\n`,
    );
    expect(model.tools.map((t) => t.wire)).toEqual([
      {
        name: "a",
        inputSchema: { type: "object" },
        _meta: { x: 1, securitySchemes: [{ type: "oauth2", scopes: ["w"] }] },
        securitySchemes: [{ type: "oauth2", scopes: ["w"] }],
      },
      { name: "b", inputSchema: { type: "object" }, securitySchemes: [{ type: "noauth" }], _meta: { securitySchemes: [{ type: "noauth" }] } },
      {
        name: "c",
        inputSchema: { type: "object" },
        securitySchemes: [{ type: "oauth2", scopes: ["r"] }],
        _meta: { securitySchemes: [{ type: "oauth2", scopes: ["r"] }] },
      },
    ]);
    expect(Object.keys(model.tools[0]!.wire)).toEqual(["name", "inputSchema", "_meta", "securitySchemes"]);
    expect(Object.keys(model.tools[0]!.wire._meta as object)).toEqual(["x", "securitySchemes"]);
    expect(model.resources[0]!.wire).toEqual({ uri: "x://a", name: "a" });
    expect(model.resourceTemplates[0]!.wire).toEqual({ uriTemplate: "x://t/{id}", name: "t" });
    expect(model.prompts[0]!.wire).toEqual({ name: "p" });
  });

  it("serves a pulled tool's securitySchemes as written on a server without auth", async () => {
    const model = await modelOf(`${SERVER}tools:\n  - {name: a, inputSchema: {type: object}, securitySchemes: [{type: oauth2, scopes: [x]}]}\n`);
    expect(model.tools[0]!.wire).toEqual({ name: "a", inputSchema: { type: "object" }, securitySchemes: [{ type: "oauth2", scopes: ["x"] }] });
  });

  it("makes the filtered lists' cache hints private under hideUnauthorized, whatever the manifest says", async () => {
    const given = (hide: boolean) => `${SERVER}${AUTH}  hideUnauthorized: ${hide}\n${JWT}cache:\n  tools/list: {ttlMs: 1000, cacheScope: public}\n`;
    const hidden = (await modelOf(given(true))).cache;
    expect(hidden["tools/list"]).toEqual({ ttlMs: 1000, cacheScope: "private" });
    for (const method of ["prompts/list", "resources/list", "resources/templates/list"])
      expect(hidden[method]).toEqual({ ttlMs: 300000, cacheScope: "private" });
    expect(hidden["server/discover"]).toEqual({ ttlMs: 300000, cacheScope: "public" });
    expect((await modelOf(given(false))).cache["tools/list"]).toEqual({ ttlMs: 1000, cacheScope: "public" });
  });

  it("caches a protected static resource privately by default, a public one publicly, and keeps what the manifest says", async () => {
    const resources = [
      "  - {uri: 'x://admin', name: admin, text: secret, scopes: [admin]}",
      "  - {uri: 'x://open', name: open, text: hello, auth: none}",
      "  - {uri: 'x://given', name: given, text: shared, scopes: [admin], cache: {cacheScope: public, ttlMs: 5}}",
    ];
    const cache = (await modelOf(`${SERVER}${AUTH}${JWT}resources:\n${resources.join("\n")}\n`)).cache as { resources: Record<string, unknown> };
    expect(cache.resources).toEqual({
      "x://admin": { ttlMs: 300000, cacheScope: "private" },
      "x://open": { ttlMs: 300000, cacheScope: "public" },
      "x://given": { ttlMs: 5, cacheScope: "public" },
    });
    // Without auth, static contents are the same for everyone.
    const open = (await modelOf(`${SERVER}resources:\n  - {uri: 'x://a', name: a, text: hi}\n`)).cache as { resources: Record<string, unknown> };
    expect(open.resources).toEqual({ "x://a": { ttlMs: 300000, cacheScope: "public" } });
  });
});

describe("who may read a widget's HTML", () => {
  const widget = (name: string) => `  - {name: ${name}, uri: 'ui://s/${name}.html', entry: v.ts}\n`;
  const tool = (name: string, opens: string, rule: string) => `  - {name: ${name}, inputSchema: {type: object}, widget: ${opens}${rule}}\n`;
  const cases: [string, { tools: string[]; want: unknown }][] = [
    [
      "whoever may call a tool that opens it: the scopes all its tools need",
      { tools: [tool("a", "w", ", scopes: [r, w]"), tool("b", "w", ", scopes: [w, x]")], want: ["w"] },
    ],
    ["anyone, when one of its tools is auth: none", { tools: [tool("a", "w", ", scopes: [r]"), tool("b", "w", ", auth: none")], want: "none" }],
    ["the tool's default when it names none", { tools: [tool("a", "w", "")], want: ["r"] }],
  ];
  it.each(cases)("%s", async (_, { tools, want }) => {
    const dir = tempProject({ "v.ts": "" });
    const ctx = await contextOf(`${SERVER}${AUTH}  defaultScopes: [r]\n${JWT}tools:\n${tools.join("")}widgets:\n${widget("w")}`, dir);
    const { resources } = await buildWidgets(ctx);
    expect(resources[0]!.access).toEqual(want);
  });
});

/**
 * `mcpgen auth dev`: a development authorization server for the project's manifests, on loopback;
 * `mcpgen auth token`: an access token from it, for given scopes. The server is
 * src/commands/auth/devServer.ts.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { hasErrors } from "../common/diagnostics.js";
import { printDiagnostics } from "../common/report.js";
import { loadConfig } from "../config/loadConfig.js";
import { projectRoot, resolveManifests } from "../generator/load/manifestPaths.js";
import type { ServerModel } from "../generator/model/types.js";
import { CliUsageError, type CommandLine } from "./args.js";
import { defineCommand } from "./command.js";

type AuthArgs =
  { action: "dev"; port: number; manifests: string[]; config?: string } | { action: "token"; scopes: string[]; resource?: string; issuer?: string };

const DEFAULT_PORT = 9000;

export const authCommand = defineCommand({
  name: "auth",
  about: "a development authorization server, and tokens from it.",
  summary:
    "Run an OAuth 2.1 authorization server on loopback that issues tokens for the manifests' auth.resource and scopes (auth dev), and get a token from it (auth token).",
  synopsis: ["mcpgen auth dev [PATH...] [--port PORT] [--config FILE]", "mcpgen auth token [--scope SCOPE...] [--resource URL] [--issuer URL]"],
  details: `auth dev starts oidc-provider (an OpenID certified server) on http://127.0.0.1:PORT/ for the
servers whose manifests have auth (as configured, or the PATHs given). It issues JWT access tokens
(ES256) whose audience is the resource a client names: a manifest's auth.resource, or any loopback
URL, with the scopes the client asks for among the manifests'. Two ways in: the client credentials
of the client mcpgen-dev (secret mcpgen-dev-secret), which auth token uses; and the authorization
code flow with PKCE for clients that register themselves (the MCP Inspector, SDK clients), whose
login takes any name and password. It prints how to point the server at it: a manifest whose
auth.jwt names it needs nothing; another is started with MCP_AUTH_ISSUER and MCP_AUTH_JWKS_URI.
Its signing key is kept in node_modules/.cache/mcpgen/auth-dev/, so tokens outlive a restart.
For development only: anyone on this machine can get a token from it. Ctrl-C stops it.

auth token prints an access token on stdout (for Authorization: Bearer), from the server auth dev
started in this project (or --issuer), for --resource (default: the only one) and the --scope
given (several: repeat it, or separate them with spaces or commas).`,
  options: {
    manifests: { type: "string", multiple: true, value: "PATH", needs: "a file or folder", help: "" },
    port: { type: "string", value: "PORT", needs: "a port", help: `auth dev: the port on 127.0.0.1 (default ${DEFAULT_PORT}; 0: a free one).` },
    config: { type: "string", value: "FILE", needs: "a file", help: "auth dev: read this config instead of looking for one." },
    scope: { type: "string", multiple: true, value: "SCOPE", needs: "a scope", help: "auth token: a scope the token carries." },
    resource: { type: "string", value: "URL", needs: "a URL", help: "auth token: the resource (audience) the token is for." },
    issuer: { type: "string", value: "URL", needs: "a URL", help: "auth token: the authorization server (default: the one auth dev started here)." },
  },
  footer:
    "Exit codes: auth dev: 0 stopped (SIGINT/SIGTERM), 1 no manifest with auth, or the port is taken; auth token: 0 printed, 1 refused or no server; 2 usage error.",
  unknownHint: "for auth",
  parse: parseAuthArgs,
  run: runAuth,
});

function parseAuthArgs(line: CommandLine): AuthArgs {
  const v = line.values;
  const [action, ...rest] = line.positionals;
  const only = (allowed: string[], which: string) => {
    for (const name of ["port", "config", "scope", "resource", "issuer", "manifests"])
      if (v[name] !== undefined && !allowed.includes(name))
        throw new CliUsageError(`${line.typed[name] ?? `--${name}`} is an option of ${which === "dev" ? "auth token" : "auth dev"}, not of auth ${which}`);
  };
  if (action === "dev") {
    only(["port", "config", "manifests"], "dev");
    let port = DEFAULT_PORT;
    if (typeof v.port === "string") {
      port = /^\d+$/.test(v.port) ? Number(v.port) : NaN;
      if (!(port >= 0 && port <= 65535)) throw new CliUsageError(`${line.typed.port} takes a port from 0 to 65535, not ${JSON.stringify(v.port)}`);
    }
    return {
      action,
      port,
      manifests: [...((v.manifests as string[] | undefined) ?? []), ...rest],
      ...(typeof v.config === "string" ? { config: v.config } : {}),
    };
  }
  if (action === "token") {
    only(["scope", "resource", "issuer"], "token");
    if (rest.length > 0) throw new CliUsageError(`auth token takes no ${JSON.stringify(rest[0])}: give scopes with --scope`);
    const scopes = ((v.scope as string[] | undefined) ?? []).flatMap((s) => s.split(/[\s,]+/)).filter((s) => s !== "");
    for (const [name, value] of [
      ["resource", v.resource],
      ["issuer", v.issuer],
    ] as const) {
      if (typeof value === "string" && !URL.canParse(value)) throw new CliUsageError(`${line.typed[name]} takes an absolute URL, not ${JSON.stringify(value)}`);
    }
    return {
      action,
      scopes,
      ...(typeof v.resource === "string" ? { resource: v.resource } : {}),
      ...(typeof v.issuer === "string" ? { issuer: v.issuer } : {}),
    };
  }
  throw new CliUsageError(
    action === undefined ? "auth needs an action: dev (start the server) or token (get a token)" : `auth has no action ${JSON.stringify(action)}: dev or token`,
  );
}

async function runAuth(args: AuthArgs, cwd: string): Promise<number> {
  return args.action === "dev" ? runDevServer(args, cwd) : runToken(args, cwd);
}

/** Where auth dev says which issuer it serves, for auth token: beside the parse cache. */
function stateFile(root: string): string {
  return path.join(root, "node_modules", ".cache", "mcpgen", "auth-dev", "server.json");
}

async function runDevServer(args: Extract<AuthArgs, { action: "dev" }>, cwd: string): Promise<number> {
  const loaded = loadConfig(cwd, args.config);
  printDiagnostics(loaded.diagnostics);
  if (hasErrors(loaded.diagnostics)) {
    process.stderr.write("mcpgen: the config has errors.\n");
    return 1;
  }
  const models = await modelsOf(args.manifests.length > 0 ? args.manifests.map((m) => path.resolve(cwd, m)) : loaded.config.manifests, cwd);
  if (models === undefined) return 1;
  const protectedModels = models.filter((m) => m.auth !== undefined);
  if (protectedModels.length === 0) {
    process.stderr.write(
      `mcpgen: no manifest has auth (${models.length} read): add an auth block (docs/guides/authorization.md), or start from \`mcpgen init NAME --auth\`.\n`,
    );
    return 1;
  }
  const root = projectRoot(cwd);
  const cache = existsSync(path.join(root, "node_modules")) ? path.dirname(stateFile(root)) : undefined;
  const { startDevAuthServer } = await import("../commands/auth/devServer.js");
  let server: Awaited<ReturnType<typeof startDevAuthServer>>;
  try {
    server = await startDevAuthServer({
      port: args.port,
      resources: protectedModels.map((m) => ({ resource: m.auth!.resource, scopes: scopesOf(m), server: m.name })),
      ...(cache ? { keyFile: path.join(cache, "key.json") } : {}),
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    process.stderr.write(
      code === "EADDRINUSE"
        ? `mcpgen: port ${args.port} is taken (another auth dev?): stop it, or give --port\n`
        : `mcpgen: the authorization server did not start: ${(error as Error).message}\n`,
    );
    return 1;
  }
  if (cache) writeFileSync(stateFile(root), `${JSON.stringify({ issuer: server.issuer, pid: process.pid })}\n`);
  process.stdout.write(banner(server, protectedModels));
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await server.close();
  if (cache && existsSync(stateFile(root))) rmSync(stateFile(root));
  return 0;
}

/** What auth dev prints: where it is, how to point each server at it, how to get a token. */
function banner(server: { issuer: string; jwksUri: string }, models: readonly ServerModel[]): string {
  const lines = [
    `mcpgen auth dev: an authorization server for development at ${server.issuer} (oidc-provider; loopback only; Ctrl-C stops it)`,
    `  issuer    ${server.issuer}`,
    `  jwks      ${server.jwksUri}`,
    `  clients   mcpgen-dev / mcpgen-dev-secret (client credentials, what auth token uses); others register themselves (authorization code with PKCE; any name and password)`,
  ];
  for (const model of models) {
    const auth = model.auth!;
    const scopes = scopesOf(model);
    lines.push(`  ${model.name}: tokens for ${auth.resource}${scopes.length > 0 ? ` with scopes ${scopes.join(", ")}` : ""}`);
    const verifier = auth.verifier;
    if (verifier.kind !== "jwt")
      lines.push(`    its auth uses ${verifier.kind === "handler" ? "verifier: handler" : "introspection"}: only auth.jwt servers verify these tokens`);
    else if (verifier.issuer === server.issuer && verifier.jwksUri === server.jwksUri) lines.push("    its manifest names this server: start it as usual");
    else lines.push(`    its manifest names ${verifier.issuer}: start it with MCP_AUTH_ISSUER=${server.issuer} MCP_AUTH_JWKS_URI=${server.jwksUri}`);
  }
  const first = scopesOf(models[0]!)[0];
  lines.push(
    `A token (in another terminal): npx mcpgen auth token${first ? ` --scope ${first}` : ""}${models.length > 1 ? ` --resource ${models[0]!.auth!.resource}` : ""}`,
  );
  return `${lines.join("\n")}\n`;
}

/** The scopes a server's tokens may carry: scopesSupported, defaultScopes and every entry's. */
function scopesOf(model: ServerModel): string[] {
  const auth = model.auth!;
  const rules = [...model.tools, ...model.resources, ...model.resourceTemplates, ...model.prompts].map((e) => e.access);
  const named = rules.flatMap((rule) => (rule !== undefined && rule !== "none" ? rule : []));
  return [...new Set([...(auth.scopesSupported ?? []), ...(auth.defaultScopes ?? []), ...named])];
}

/** The valid models of these manifests; undefined (errors printed) when one does not compile. */
async function modelsOf(inputs: readonly string[], cwd: string): Promise<ServerModel[] | undefined> {
  const { compile } = await import("../generator/compile.js");
  const { files, diagnostics } = await resolveManifests([...inputs], cwd);
  printDiagnostics(diagnostics);
  if (hasErrors(diagnostics)) return undefined;
  const models: ServerModel[] = [];
  for (const absPath of files) {
    const compiled = await compile({ absPath, file: path.relative(cwd, absPath) || absPath, text: readFileSync(absPath, "utf8") });
    printDiagnostics(compiled.diagnostics.filter((d) => d.severity === "error"));
    if (!compiled.model) {
      process.stderr.write("mcpgen: a manifest has errors: fix them, then start auth dev again.\n");
      return undefined;
    }
    models.push(compiled.model);
  }
  return models;
}

/** The `scope` claim of a JWT access token (its payload is read, not verified: it is ours to show). */
function grantedScopes(token: string): string[] {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { scope?: unknown };
    return typeof payload.scope === "string" ? payload.scope.split(" ").filter((s) => s !== "") : [];
  } catch {
    return [];
  }
}

async function runToken(args: Extract<AuthArgs, { action: "token" }>, cwd: string): Promise<number> {
  const { requestToken, DEV_AUTH_PORT } = await import("../commands/auth/devServer.js");
  let issuer = args.issuer;
  if (issuer === undefined) {
    const file = stateFile(projectRoot(cwd));
    try {
      const state = JSON.parse(readFileSync(file, "utf8")) as { issuer?: unknown };
      if (typeof state.issuer === "string") issuer = state.issuer;
    } catch {
      // No auth dev here: its default address.
    }
  }
  issuer ??= `http://127.0.0.1:${DEV_AUTH_PORT}`;
  try {
    const token = await requestToken(issuer, { scopes: args.scopes, ...(args.resource === undefined ? {} : { resource: args.resource }) });
    // oidc-provider drops a scope it does not know without a word: say it, or the 403 comes later.
    const granted = grantedScopes(token);
    const lacking = args.scopes.filter((s) => !granted.includes(s));
    if (lacking.length > 0)
      process.stderr.write(
        `mcpgen: the token lacks ${lacking.join(", ")}: the authorization server did not grant ${lacking.length === 1 ? "it" : "them"} (granted: ${granted.join(", ") || "none"})\n`,
      );
    process.stdout.write(`${token}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`mcpgen: ${(error as Error).message}\n`);
    return 1;
  }
}

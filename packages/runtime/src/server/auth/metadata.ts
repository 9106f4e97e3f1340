/**
 * The Protected Resource Metadata document (RFC 9728) of a server with `auth`, from the
 * manifest, served at both well-known forms MCP clients try: the path-aware
 * `/.well-known/oauth-protected-resource<path of the resource>` and the root
 * `/.well-known/oauth-protected-resource` (and at the endpoint's own path when a proxy serves
 * the resource under another one). GET and HEAD answer it, OPTIONS answers a CORS preflight,
 * with `Access-Control-Allow-Origin: *` as browsers' clients need.
 */
import type { AuthDefinition, Implementation, JsonObject } from "../../shared/definition.js";

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** The PRM document. `offline_access` is left out of scopes_supported, as MCP advises. */
export function protectedResourceMetadata(auth: AuthDefinition, resource: string, serverInfo: Implementation): JsonObject {
  const title = serverInfo["title"];
  const scopes = auth.scopesSupported?.filter((s) => s !== "offline_access");
  return {
    resource,
    authorization_servers: [...auth.authorizationServers],
    ...(scopes === undefined ? {} : { scopes_supported: scopes }),
    bearer_methods_supported: ["header"],
    resource_name: auth.resourceName ?? (typeof title === "string" ? title : serverInfo.name),
    ...(auth.resourceDocumentation === undefined ? {} : { resource_documentation: auth.resourceDocumentation }),
  };
}

/** The paths the document is served at, for a resource and the MCP endpoint's path. */
export function metadataPaths(resource: string, endpoint: string): Set<string> {
  const path = new URL(resource).pathname;
  const paths = new Set([WELL_KNOWN]);
  for (const p of [path, endpoint]) if (p !== "/" && p !== "") paths.add(WELL_KNOWN + p);
  return paths;
}

const CORS = { "access-control-allow-origin": "*", "access-control-allow-methods": "GET, HEAD, OPTIONS", "access-control-allow-headers": "*" };

/** The answer to a request for the document, by method. */
export function metadataResponse(document: JsonObject, method: string): Response {
  if (method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
  if (method !== "GET" && method !== "HEAD") return new Response(null, { status: 405, headers: { ...CORS, allow: "GET, HEAD, OPTIONS" } });
  const body = JSON.stringify(document);
  return new Response(method === "HEAD" ? null : body, {
    status: 200,
    headers: { ...CORS, "content-type": "application/json", "cache-control": "public, max-age=300" },
  });
}

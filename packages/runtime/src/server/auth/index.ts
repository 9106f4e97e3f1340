/**
 * `@mcpgen/runtime/server/auth`: the authorization gate of a protected server on Streamable HTTP
 * (Protected Resource Metadata, bearer tokens checked as JWTs, by introspection or by your
 * verifier, the scopes of each request). The generated serve.ts of a manifest with `auth` hands
 * `authGate` to the transport (with `auth.jwt`, `jwtAuthGate` of `./jwt`, which loads jose); a
 * server without `auth` never loads this part.
 */
import type { AuthPart } from "../engine/engineCore.js";
import { openAuthGate } from "./gate.js";

export type { AuthOptions } from "../engine/parts.js";

/** The authorization part: what the generated serve.ts of a server with `auth` by introspection or its own verifier passes to serveHttpWith. */
export const authGate: AuthPart = { open: openAuthGate };

/**
 * `@mcpgen/runtime/server/auth/jwt`: the authorization part of a server with `auth.jwt`, which
 * verifies access tokens with `jose`. Its import of `jose` is written out, so that a bundler (a
 * Worker's, esbuild's) puts jose in the bundle; jose itself loads only when the gate opens (the
 * first request, or `ready()`). Servers with introspection or their own verifier get `authGate`
 * of `@mcpgen/runtime/server/auth` and need no jose.
 */
import type { AuthPart } from "../engine/engineCore.js";
import { openAuthGate } from "./gate.js";

export type { AuthOptions } from "../engine/parts.js";

/** The authorization part the generated code of a server with `auth.jwt` passes to serving. */
export const jwtAuthGate: AuthPart = {
  open: (definition, endpoint, options, verifyToken, env) => openAuthGate(definition, endpoint, options, verifyToken, env, () => import("jose")),
};

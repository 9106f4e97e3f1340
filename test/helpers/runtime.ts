/**
 * The runtime's factory and transports as generated code calls them, with every optional part a
 * definition may need (the tasks, the authorization gate, Redis when REDIS_URL is set): for tests
 * that serve a definition written by hand rather than a generated server folder.
 */
import {
  createManifestServerFactory as createFactory,
  type AnyLists,
  type FactoryHooks,
  type RuntimeHandlers,
  type ServerFactory,
  type ServerOptions,
} from "@mcpgen/runtime/server";
import { jwtAuthGate } from "@mcpgen/runtime/server/auth/jwt";
import { serveHttpWith as serveHttp, serveStdioWith as serveStdio, type HttpOptions, type StdioOptions } from "@mcpgen/runtime/server/node";
import { redisState } from "@mcpgen/runtime/server/redis";
import { tasks } from "@mcpgen/runtime/server/tasks";
import type { ServerDefinition } from "@mcpgen/runtime/shared";
import type { Readable, Writable } from "node:stream";

export * from "@mcpgen/runtime/server";
export type { HttpOptions, StdioOptions } from "@mcpgen/runtime/server/node";

/** The factory of a definition, with the tasks part (used only when a tool declares task support). */
export function createManifestServerFactory<H extends RuntimeHandlers>(definition: ServerDefinition, handlers: H, options: ServerOptions = {}) {
  return createFactory(definition, handlers, options, { tasks });
}

/** Streamable HTTP with the authorization gate (used only with `auth`) and Redis (only with REDIS_URL). */
export function serveHttpWith<L extends AnyLists>(
  factory: ServerFactory & FactoryHooks & { readonly lists: L },
  definition: ServerDefinition,
  options: HttpOptions = {},
) {
  return serveHttp(factory, definition, options, { auth: jwtAuthGate, redis: redisState });
}

/** stdio with Redis (only with REDIS_URL). */
export function serveStdioWith<L extends AnyLists>(
  factory: ServerFactory & FactoryHooks & { readonly lists: L },
  options: StdioOptions & { input?: Readable; output?: Writable } = {},
) {
  return serveStdio(factory, options, { redis: redisState });
}

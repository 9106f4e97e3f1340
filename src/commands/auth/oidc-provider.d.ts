/**
 * The part of oidc-provider 9 (which ships no types) that `mcpgen auth dev` (devServer.ts) and the
 * tests' authorization server (test/helpers/authServer.ts) use. Loose where the library takes its
 * large configuration object: only the settings used here are typed.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: "jwt" | "opaque";
    jwt?: { sign?: { alg: string } };
  }

  export interface ProviderConfiguration {
    clients?: Record<string, unknown>[];
    scopes?: string[];
    jwks?: { keys: Record<string, unknown>[] };
    features?: Record<string, unknown>;
    pkce?: { required: () => boolean };
    clientBasedCORS?: (...args: unknown[]) => boolean;
    findAccount?: (ctx: unknown, sub: string) => Promise<{ accountId: string; claims: () => Promise<Record<string, unknown>> }>;
    clientDefaults?: Record<string, unknown>;
    ttl?: Record<string, number | ((...args: unknown[]) => number)>;
    adapter?: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }

  export const errors: { InvalidTarget: new (description?: string) => Error };
}

/**
 * A loopback JWKS for unit tests of the JWT verifier: real keys from jose, served over HTTP,
 * counted, rotatable, and able to fail. (Not an authorization server: the e2e tests use
 * oidc-provider.)
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: PrivateKey;
  jwk: JWK;
}

export async function signingKey(kid: string, alg = "ES256"): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

export interface Jwks {
  url: string;
  /** Keys published now. */
  keys: SigningKey[];
  hits: number;
  /** "up", or a failure mode. */
  mode: "up" | "500" | "hang" | "endless";
  close(): Promise<void>;
}

export async function startJwks(keys: SigningKey[]): Promise<Jwks> {
  const state = { keys, hits: 0, mode: "up" as Jwks["mode"] };
  const server: Server = createServer((_req, res) => {
    state.hits++;
    if (state.mode === "hang") return;
    if (state.mode === "500") return void res.writeHead(500).end();
    if (state.mode === "endless") {
      // A JWKS that never ends: 64 KB after 64 KB for as long as the client reads.
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(65536, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", more);
      };
      res.write('{"keys": [');
      return more();
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: state.keys.map((k) => k.jwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
  return Object.assign(state, {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** A signed access token; claims override the defaults (iat now, exp in 5 minutes). */
export function sign(key: SigningKey, claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat: now, exp: now + 300, ...claims }).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "at+jwt", ...header }).sign(key.privateKey);
}

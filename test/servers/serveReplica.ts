/**
 * How a replica script serves its generated server on the runtime that runs it: on Node, the
 * generated `serveHttp`; on Deno and Bun, the generated `createFetchHandler` behind `Deno.serve` /
 * `Bun.serve`, as a user of each writes it. Port from PORT (default 0: a free one). Prints
 * "listening on URL" once it serves (test/helpers/replicas.ts waits for it); SIGTERM closes the
 * server (its Redis connections included) and exits.
 */
type Handler = ((request: Request) => Promise<Response>) & { close(): Promise<void> };
interface Generated<H> {
  serveHttp(handlers: H, options: { port: number }): Promise<{ url: string; close(): Promise<void> }>;
  createFetchHandler(handlers: H): Handler;
}
/** What this file uses of each runtime's global (neither is in Node's types). */
interface Runtimes {
  Deno?: {
    serve(options: { hostname: string; port: number; onListen(address: { port: number }): void }, handler: Handler): unknown;
    addSignalListener(signal: "SIGTERM", listener: () => void): void;
    exit(code: number): never;
  };
  Bun?: { serve(options: { hostname: string; port: number; idleTimeout: number; fetch: Handler }): { port: number } };
}

export async function serveReplica<H>(handlers: H, generated: Generated<H>): Promise<void> {
  const port = Number(process.env.PORT ?? 0);
  const { Deno, Bun } = globalThis as Runtimes;
  let close: () => Promise<void>;
  if (Deno || Bun) {
    const handler = generated.createFetchHandler(handlers);
    // The state (Redis) opens now, so a replica that listens serves at once.
    await (handler as unknown as { ready(): Promise<void> }).ready();
    const listening = (at: number) => console.log(`listening on http://127.0.0.1:${at}/mcp`);
    if (Deno) Deno.serve({ hostname: "127.0.0.1", port, onListen: (address) => listening(address.port) }, handler);
    // idleTimeout 0: Bun closes a connection quiet for 10 s, before the SDK's 15 s keep-alive on a standing stream.
    else listening(Bun!.serve({ hostname: "127.0.0.1", port, idleTimeout: 0, fetch: handler }).port);
    close = () => handler.close();
  } else {
    const handle = await generated.serveHttp(handlers, { port });
    console.log(`listening on ${handle.url}`);
    close = () => handle.close();
  }
  const stop = () => void close().then(() => process.exit(0));
  if (Deno) Deno.addSignalListener("SIGTERM", stop);
  else process.once("SIGTERM", stop);
}

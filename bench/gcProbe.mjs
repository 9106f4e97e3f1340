// Loaded into each server bench/servers.ts measures (`--expose-gc --import`): on SIGUSR2, a full
// garbage collection, then the heap still in use, on stderr. RSS after load counts garbage not yet
// collected (how much depends on how fast a server allocates); this is what the server keeps.
process.on("SIGUSR2", () => {
  globalThis.gc();
  process.stderr.write(`mcpgen-bench-heap ${process.memoryUsage().heapUsed}\n`);
});

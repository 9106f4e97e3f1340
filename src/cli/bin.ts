#!/usr/bin/env node
/** Entry point of the `mcpgen` binary. */
import { main } from "./main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `mcpgen: internal error (a bug in mcpgen; please report it with this output):\n${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exitCode = 3;
  },
);

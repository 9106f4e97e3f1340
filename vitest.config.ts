import { defineConfig } from "vitest/config";

/** Builds dist/ for the suites that run the `mcpgen` binary (the unit tests import src/ only). */
const BUILD = ["test/global-setup.ts"];
/** Finds Chromium and redis-server (installs them where permitted) and says at once what is missing. */
const PROGRAMS = "test/deps-setup.ts";

/** The suites that install published packages from the npm registry: the `network` project. */
const NETWORK = [
  "test/e2e/new-user.test.ts",
  "test/e2e/published-diff.test.ts",
  "test/e2e/published-servers.test.ts",
  "test/e2e/published-types.test.ts",
  "test/e2e/real-servers.test.ts",
  // The MCP Inspector, installed into .cache/inspector once, on the shared Node 22 (test/helpers/node22.ts).
  "test/e2e/auth-inspector.test.ts",
  // The authorization dev loop of an init --auth project, ending with the Inspector CLI.
  "test/e2e/auth-dev.test.ts",
  // mcpgen trace between the MCP Inspector CLI and a published server.
  "test/e2e/trace-inspector.test.ts",
  // mcpgen check on traces of the SDK's Clients and the Inspector CLI with the reference servers.
  "test/e2e/check-corpus.test.ts",
  // check's SARIF through Microsoft's SARIF Multitool, installed into .cache/sarif-multitool once.
  "test/e2e/sarif-multitool.test.ts",
  // check on the official conformance suite's traffic, through mcpgen trace (the suite into .cache/conformance once).
  "test/e2e/check-conformance.test.ts",
  // The gift widget in the mcp-use Inspector, installed into .cache/mcp-use-inspector once, on the shared Node 22.
  "test/e2e/widgets.inspector.browser.test.ts",
  // The gift server on Deno and Bun, each installed into .cache/<runtime>/<version> once.
  "test/e2e/runtimes.test.ts",
  // init --target deno|bun|lambda projects on their runtimes (Deno and Bun from npm).
  "test/e2e/init-targets.test.ts",
  // Replicas on Node, Deno and Bun sharing requestState keys, tasks and lists (Redis).
  "test/e2e/replicas.test.ts",
  "test/e2e/replicas-lists.test.ts",
  "test/e2e/replicas-tasks.test.ts",
];

export default defineConfig({
  // @mcpgen/runtime from its TypeScript sources (the package's `mcpgen-source` export condition),
  // as tsconfig.json's customConditions type-check it: in-process tests need no build of it.
  resolve: { conditions: ["mcpgen-source"] },
  ssr: { resolve: { conditions: ["mcpgen-source"] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: a child process started under a loaded machine
    // takes longer than that to write its first file. A poll waits for an event, so its budget is
    // generous; it returns as soon as the event is there.
    expect: { poll: { timeout: 10_000 } },
    // Vitest's default on a 2-core machine is one worker; several suites spend most of their time
    // waiting on npm installs and child processes, so two files run side by side.
    maxWorkers: 2,
    reporters: ["default"],
    // `npm test` runs all three; `npm run test:unit`, `test:e2e`, `test:network` (or
    // `npx vitest run --project <name>`) one of them.
    projects: [
      // One module in process, no build, no child process: test/unit/ mirrors src/, and
      // packages/runtime/test/ mirrors the runtime's src/.
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts", "packages/runtime/test/**/*.test.ts"] } },
      // Everything else that needs no registry: the generator and CLI suites, test/e2e/,
      // test/hostile/, and the examples' own tests (run on this checkout's node_modules).
      {
        extends: true,
        test: {
          name: "e2e",
          globalSetup: [PROGRAMS, ...BUILD],
          include: ["test/**/*.test.ts", "examples/*/test/**/*.test.ts"],
          exclude: ["test/unit/**", ...NETWORK, "**/node_modules/**"],
        },
      },
      // The suites that install published servers, runtimes or this package's tarball from the npm
      // registry (the replica suites need redis-server too).
      { extends: true, test: { name: "network", globalSetup: [PROGRAMS, ...BUILD], include: NETWORK } },
    ],
  },
});

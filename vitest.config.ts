import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The examples' own tests run with the suite, on this checkout's node_modules.
    include: ["test/**/*.test.ts", "examples/*/test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Vitest's default on a 2-core machine is one worker; several suites spend most of their time
    // waiting on npm installs and child processes, so two files run side by side.
    maxWorkers: 2,
    reporters: ["default"],
  },
});

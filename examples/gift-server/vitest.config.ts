import { defineConfig } from "vitest/config";

// This project's own config: without it, Vitest run here would take the repository's, above.
export default defineConfig({
  test: { include: ["test/**/*.test.ts"] },
});

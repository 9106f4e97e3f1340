// @ts-check
// `npm run lint:code`: ESLint with type information (typescript-eslint's project service), over the
// hand-written code only. The rules are chosen for what goes wrong in this code base, not a preset's
// taste: promises (a dropped one is a lost error or a race in a server), exhaustive switches over the
// model's unions, dead names, and values that print as "[object Object]" in a diagnostic.
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  {
    // Written by mcpgen or by other tools: generated/ and the examples' generated/ are the goldens.
    ignores: [
      "**/node_modules/",
      "**/dist/",
      "generated/",
      "examples/*/generated/",
      "test/fixtures/",
      ".cache/",
      "coverage/",
      "schema/",
      "src/generator/validate/metaSchemas.generated.ts",
    ],
  },
  // ESLint's own recommended set: syntax-level mistakes (unreachable code, duplicate keys, a
  // self-assignment, a `const` reassigned...); cheap, and rarely wrong.
  js.configs.recommended,
  // typescript-eslint's recommended set without type information: no-unused-vars, the TypeScript
  // versions of the rules above, and a few TypeScript mistakes (`a!?.b`, unsafe declaration merging).
  tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        // Each file with the tsconfig.json that includes it (the root's, src/harness's, the
        // example's); the few plain .js/.mjs scripts and the examples' Vitest configs in a default project.
        projectService: { allowDefaultProject: ["*.js", "bench/*.mjs", "test/servers/*.mjs", "examples/*/vitest.config.ts"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits loses its rejection (an unhandled rejection ends a Node process) or
      // races what follows; `void` marks the ones dropped on purpose.
      "@typescript-eslint/no-floating-promises": "error",
      // An async function where a void callback is expected (an event listener, a timer, a
      // transport's onmessage): its rejection goes nowhere.
      "@typescript-eslint/no-misused-promises": "error",
      // `await` on a value that is not a promise: usually a function whose signature changed.
      "@typescript-eslint/await-thenable": "error",
      // A switch over a union (the model's kinds, diagnostic codes, JSON Schema types, eras) must
      // name every member unless it has a default: a new member is then a lint error at each switch.
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      // `_`-prefixed names are deliberate: an unused parameter a signature requires, a field taken
      // out of a rest (`const { a: _, ...rest } = x`).
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
      // A thrown or rejected string has no stack. AbortSignal.reason (typed any) is the exception:
      // rejecting with it is what an aborted fetch does.
      "@typescript-eslint/only-throw-error": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      // Messages are this tool's product: an object in a template or String() prints "[object Object]".
      "@typescript-eslint/no-base-to-string": "error",
      "@typescript-eslint/restrict-template-expressions": "error",
      // Array.prototype.sort() without a comparer sorts numbers as strings.
      "@typescript-eslint/require-array-sort-compare": ["error", { ignoreStringArrays: true }],
      // Cheap and type-aware: `for...in` over an array, `delete` on an array element, `A | A`.
      "@typescript-eslint/no-for-in-array": "error",
      "@typescript-eslint/no-array-delete": "error",
      "@typescript-eslint/no-duplicate-type-constituents": "error",
      // A destructuring with one name reassigned stays `let` (`let [a, b] = ...; [a, b] = wrap(...)`).
      "prefer-const": ["error", { destructuring: "all" }],
      // Off: `{} extends T["input"]` is how the client asks "is every argument optional?".
      "@typescript-eslint/no-empty-object-type": "off",
      // Off: `any` is a review question, not a bug; the type-aware rules above see through it.
      "@typescript-eslint/no-explicit-any": "off",
      // Off: these regular expressions match control characters on purpose (escaping, refusing them).
      "no-control-regex": "off",
    },
  },
  {
    // The runtime package compiles in users' projects (vendor mode copies its sources) under every
    // strict flag: it is linted with those flags, so a rule sees the types users' compilers see.
    files: ["packages/runtime/src/**/*.ts"],
    languageOptions: {
      parserOptions: { projectService: false, project: "./packages/runtime/tsconfig.json", tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    languageOptions: { globals: globals.node },
  },
);

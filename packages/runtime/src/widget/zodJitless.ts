/**
 * zod without its JIT, set before any zod schema exists: zod decides at each object schema's
 * construction (the official App's and the MCP client's, made when their modules load) whether
 * to probe `new Function`, and the probe is a CSP violation in a view (no unsafe-eval) even
 * though zod catches it. Imported first by ./extAppsBridge.ts, so it runs before those modules.
 */
import { config } from "zod";

config({ jitless: true });

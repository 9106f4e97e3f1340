// Logs every module the ESM loader loads to stderr ("loaded <url>"): `node --import ./load-log.mjs`.
// A test reads which packages a server loaded (test/e2e/no-code-from-strings.test.ts).
import { register } from "node:module";

const hook = `export async function load(url, context, next) {
  process.stderr.write("loaded " + url + "\\n");
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`);

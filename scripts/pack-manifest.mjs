// The package.json that goes into mcpgen's tarball (`npm pack`, `npm publish`): this one without
// the scripts that only make sense in a checkout. `prepare` builds dist/ on a checkout's
// `npm install`; in the tarball npm 11 would list it among the install scripts it asks the user
// to approve, though dist/ is already built. The husky/pinst pattern: prepack writes the stripped
// manifest, postpack puts the checkout's back (byte for byte, from the copy prepack kept).
//
//   node scripts/pack-manifest.mjs strip     (prepack)
//   node scripts/pack-manifest.mjs restore   (postpack)
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** Checkout-only lifecycle scripts: the build on install, and this pair. */
const CHECKOUT_ONLY = ["prepare", "prepack", "postpack"];
const manifest = fileURLToPath(new URL("../package.json", import.meta.url));
const kept = fileURLToPath(new URL("../.cache/package.json.checkout", import.meta.url));

const step = process.argv[2];
if (step === "strip") {
  const text = readFileSync(manifest, "utf8");
  const pkg = JSON.parse(text);
  // Already stripped (another pack of this checkout is under way): leave its copy alone.
  if (!CHECKOUT_ONLY.some((name) => pkg.scripts?.[name] !== undefined)) process.exit(0);
  mkdirSync(path.dirname(kept), { recursive: true });
  try {
    writeFileSync(kept, text, { flag: "wx" });
  } catch (error) {
    // A copy from a pack that stopped before its postpack: it is the checkout's, keep it.
    if (error.code !== "EEXIST") throw error;
  }
  for (const name of CHECKOUT_ONLY) delete pkg.scripts[name];
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (step === "restore") {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip|restore");
  process.exit(2);
}

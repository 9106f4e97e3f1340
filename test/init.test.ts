/** `mcpgen init`: what it writes, what it refuses, and never overwriting a file. */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { mcpgen, ROOT } from "./helpers/cli.js";
import { tempProject } from "./helpers/tmp.js";

describe("mcpgen init", () => {
  it("says at the folder when it cannot pack mcpgen (npm not on the PATH), with what to give instead", () => {
    const parent = tempProject();
    const r = spawnSync(process.execPath, [path.join(ROOT, "dist/cli/bin.js"), "init", "nonpm"], { cwd: parent, encoding: "utf8", env: { PATH: "" } });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `mcpgen: nonpm: error pack-failed: cannot pack mcpgen for the new project (npm is not on the PATH); give the dependency with --mcpgen (a checkout: --mcpgen file:${ROOT})\n`,
    );
  });

  it("creates a project named after its folder, generated and ready to build", () => {
    const parent = tempProject();
    const r = mcpgen(["init", "My Server"], parent);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "mcpgen: created my-server in My Server (11 files, plus generated/); mcpgen and @mcpgen/runtime come from vendor/, this mcpgen packed (they are not on the npm registry yet)",
    );
    expect(r.stdout).toContain("Next:\n  cd 'My Server' && npm install\n  npm test             # builds first (mcpgen generate, tsc), then runs test/\n");
    // The stdio command for MCP clients: node, so npm's banner never reaches stdout.
    expect(r.stdout).toContain(`{"command": "node", "args": [${JSON.stringify(path.join(parent, "My Server", "dist/src/main.js"))}]}`);
    const dir = path.join(parent, "My Server");
    for (const file of [
      "package.json",
      "tsconfig.json",
      "mcpgen.config.json",
      "manifests/my-server.yaml",
      "src/main.ts",
      "src/handlers/my-server/tools/greet.ts",
      "test/server.test.ts",
      ".gitignore",
      "README.md",
      "generated/my-server/handlers.ts",
    ]) {
      expect(existsSync(path.join(dir, file)), file).toBe(true);
    }
    const manifest = readFileSync(path.join(dir, "manifests/my-server.yaml"), "utf8");
    expect(manifest.split("\n")[0]).toBe("# yaml-language-server: $schema=../node_modules/mcpgen/schema/manifest.schema.json");
    expect(manifest).toContain('text: "Write a one-line welcome for {{name}}."');
    // The starter's example is what its handler answers (its comma quoted), and lint finds nothing.
    expect(manifest).toContain('result: {greeting: "Hello, Ada!"}');
    expect(mcpgen(["lint"], dir)).toMatchObject({ code: 0, stderr: "" });
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    expect(pkg.scripts).toMatchObject({ generate: "mcpgen generate", prebuild: "mcpgen generate" });
    expect(Object.keys(pkg.dependencies)).toEqual(["@mcpgen/runtime", "@modelcontextprotocol/server", "redis"]);
    // Installable before mcpgen is on the registry: this mcpgen and its runtime, packed into vendor/.
    expect(pkg.devDependencies.mcpgen).toBe("file:vendor/mcpgen-0.1.0.tgz");
    expect(pkg.dependencies["@mcpgen/runtime"]).toBe("file:vendor/mcpgen-runtime-0.1.0.tgz");
    const listing = execFileSync("tar", ["-tzf", path.join(dir, "vendor/mcpgen-0.1.0.tgz")], { encoding: "utf8" }).split("\n");
    expect(listing).toEqual(expect.arrayContaining(["package/package.json", "package/dist/cli/bin.js", "package/templates/init/package.json.hbs"]));
    expect(listing.filter((f) => f.includes("runtime/server/"))).toEqual([]);
    const runtimeListing = execFileSync("tar", ["-tzf", path.join(dir, "vendor/mcpgen-runtime-0.1.0.tgz")], { encoding: "utf8" }).split("\n");
    // Its built entries, and the sources that vendor mode copies.
    expect(runtimeListing).toEqual(
      expect.arrayContaining(["package/package.json", "package/dist/server/index.js", "package/dist/server/index.d.ts", "package/src/server/engine.ts"]),
    );
    // The packed package.json keeps no checkout-only script: npm 11 asks to approve no install script.
    const packed = JSON.parse(execFileSync("tar", ["-xzOf", path.join(dir, "vendor/mcpgen-0.1.0.tgz"), "package/package.json"], { encoding: "utf8" }));
    expect(packed.scripts).not.toHaveProperty("prepare");
    expect(packed.scripts).not.toHaveProperty("prepack");
    expect(packed.scripts).not.toHaveProperty("postpack");
    // ... and this checkout's package.json is as it was.
    expect(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts).toMatchObject({ prepare: "npm run build" });
    expect(existsSync(path.join(ROOT, ".cache/package.json.checkout"))).toBe(false);
    // TypeScript 7 (the native compiler); esbuild's install script off; generated/ not committed.
    expect(pkg.devDependencies.typescript).toBe("^7.0.2");
    expect(pkg.allowScripts).toEqual({ esbuild: false });
    expect(pkg.scripts.test).toBe("npm run build && node --test dist/test/server.test.js");
    expect(readFileSync(path.join(dir, ".gitignore"), "utf8").split("\n")).toEqual(expect.arrayContaining(["node_modules/", "dist/", "generated/"]));
    const readme = readFileSync(path.join(dir, "README.md"), "utf8");
    expect(readme).not.toContain("npmjs.com");
    expect(readme).toContain("`generated/` is rebuilt from the manifests");
    const other = mcpgen(["init", "other", "--mcpgen", `file:${path.relative(path.join(parent, "other"), ROOT)}`], parent);
    expect(other.code).toBe(0);
    // Named after its folder: the folder is not said twice. A checkout gives its own runtime.
    const checkout = path.relative(path.join(parent, "other"), ROOT);
    expect(other.stdout).toMatch(
      /^mcpgen: created other \(11 files, plus generated\/\); mcpgen comes from file:\S+, @mcpgen\/runtime from file:\S+\/packages\/runtime\.\n/,
    );
    expect(other.stdout).toContain("Next:\n  cd other && npm install\n");
    const otherPkg = JSON.parse(readFileSync(path.join(parent, "other/package.json"), "utf8"));
    expect([otherPkg.devDependencies.mcpgen, otherPkg.dependencies["@mcpgen/runtime"]]).toEqual([`file:${checkout}`, `file:${checkout}/packages/runtime`]);
    expect(existsSync(path.join(parent, "other/vendor"))).toBe(false);
    // A version range: the same range of the runtime, from the registry.
    expect(mcpgen(["init", "ranged", "--mcpgen", "^0.1.0"], parent).code).toBe(0);
    const ranged = JSON.parse(readFileSync(path.join(parent, "ranged/package.json"), "utf8"));
    expect([ranged.devDependencies.mcpgen, ranged.dependencies["@mcpgen/runtime"]]).toEqual(["^0.1.0", "^0.1.0"]);
    // Its own check passes: generated/ matches its manifest.
    expect(mcpgen(["generate", "--check"], dir).code).toBe(0);
  });

  it("--widget adds a widget for the starter tool, bundled by the first generate before any npm install, and a harness script", () => {
    const parent = tempProject();
    const r = mcpgen(["init", "shop", "--widget", "--mcpgen", "file:../mcpgen"], parent);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("  npm run harness      # the greeting widget in a mock MCP Apps host, in a browser (PORT=8080 to pick the port)\n");
    const dir = path.join(parent, "shop");
    for (const file of [
      "manifests/widgets/greeting.ts",
      "manifests/widgets/greeting.css",
      "manifests/widgets/styles.d.ts",
      "manifests/widgets/tsconfig.json",
      "src/harness.ts",
      "generated/shop/widgets/greeting.ts",
      "generated/shop/widgets/scenarios.ts",
    ])
      expect(existsSync(path.join(dir, file)), file).toBe(true);
    const manifest = readFileSync(path.join(dir, "manifests/shop.yaml"), "utf8");
    expect(manifest).toContain("    widget: greeting\n");
    expect(manifest).toContain("widgets:\n  - name: greeting\n    uri: ui://shop/greeting.html\n    entry: widgets/greeting.ts\n");
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    expect(pkg.dependencies["@modelcontextprotocol/ext-apps"]).toBe("~2.0.4");
    expect(pkg.scripts).toMatchObject({
      build: "tsc -p tsconfig.json && tsc -p manifests/widgets/tsconfig.json",
      harness: "npm run build && node dist/src/harness.js",
    });
    // The widget's HTML is in the definition the server serves, with its styles (the system font, as the gift widget).
    const definition = readFileSync(path.join(dir, "generated/shop/definition.ts"), "utf8");
    expect(definition).toContain('"uri":"ui://shop/greeting.html","name":"greeting","title":"Greeting"');
    expect(definition).toMatch(/<style>[^<]*font-family:\s*system-ui/);
    expect(mcpgen(["generate", "--check"], dir).code).toBe(0);
  }, 60_000);

  it("--auth protects the server: an auth block, a scope on the starter tool, jose, a handler reading ctx.auth, and tools/list with securitySchemes", () => {
    const parent = tempProject();
    const r = mcpgen(["init", "guard", "--auth", "--mcpgen", "file:../mcpgen"], parent);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const dir = path.join(parent, "guard");
    const manifest = readFileSync(path.join(dir, "manifests/guard.yaml"), "utf8");
    expect(manifest).toContain(
      "auth:\n  resource: http://127.0.0.1:3000/mcp\n  authorizationServers: [http://127.0.0.1:9000]\n  scopesSupported: [greet]\n  jwt: {issuer: http://127.0.0.1:9000, jwksUri: http://127.0.0.1:9000/jwks}\n",
    );
    expect(manifest).toContain("    annotations: {readOnlyHint: true}\n    scopes: [greet]\n");
    // The manifest names the development authorization server of `npm run auth`.
    expect(manifest).toContain("The URLs are those of the development server `npm run auth` starts");
    const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { dependencies: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.dependencies["jose"]).toBe("^6.2.19");
    expect(pkg.scripts).toMatchObject({ auth: "mcpgen auth dev", token: "mcpgen auth token --scope greet" });
    expect(readFileSync(path.join(dir, "src/handlers/guard/tools/greet.ts"), "utf8")).toContain("ctx.auth?.subject");
    expect(readFileSync(path.join(dir, "README.md"), "utf8")).toContain("## Authorization");
    const tools = JSON.parse(readFileSync(path.join(dir, "generated/guard/fixtures/tools-list.json"), "utf8")) as { tools: Record<string, unknown>[] };
    expect(tools.tools[0]?.["securitySchemes"]).toEqual([{ type: "oauth2", scopes: ["greet"] }]);
    // Without --auth, none of it.
    const plain = mcpgen(["init", "plain", "--mcpgen", "file:../mcpgen"], parent);
    expect(plain.code).toBe(0);
    expect(readFileSync(path.join(parent, "plain/manifests/plain.yaml"), "utf8")).not.toContain("auth:");
    expect(readFileSync(path.join(parent, "plain/package.json"), "utf8")).not.toContain("jose");
  });

  it("scaffolds several replicas: compose.yaml (Redis, two replicas, HAProxy), haproxy.cfg sticky by Mcp-Session-Id, the options commented in main.ts", () => {
    const parent = tempProject();
    expect(mcpgen(["init", "fleet", "--mcpgen", "file:../mcpgen"], parent).code).toBe(0);
    const dir = path.join(parent, "fleet");
    const compose = parse(readFileSync(path.join(dir, "compose.yaml"), "utf8")) as {
      services: Record<
        string,
        { image?: string; command?: string[]; environment?: Record<string, string>; volumes?: string[]; ports?: string[]; depends_on?: string[] }
      >;
    };
    expect(Object.keys(compose.services)).toEqual(["redis", "replica1", "replica2", "proxy"]);
    expect(compose.services.redis!.command).toEqual(["redis-server", "--save", "", "--appendonly", "no"]);
    for (const name of ["replica1", "replica2"]) {
      const replica = compose.services[name]!;
      expect(replica.command).toEqual(["node", "dist/src/main.js", "--http", "3000"]);
      expect(replica.environment).toEqual({
        MCP_HOST: "0.0.0.0",
        MCP_ALLOWED_HOSTS: "localhost:8080,127.0.0.1:8080",
        MCP_REQUEST_STATE_SECRET: expect.stringMatching(/^\$\{MCP_REQUEST_STATE_SECRET:\?/),
        REDIS_URL: "redis://redis:6379",
      });
      expect(replica.depends_on).toEqual(["redis"]);
    }
    const proxy = compose.services.proxy!;
    expect(proxy.image).toMatch(/^haproxy:/);
    expect(proxy.ports).toEqual(["127.0.0.1:8080:8080"]);
    expect(proxy.volumes).toEqual(["./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro"]);
    // The proxy's config routes to the replicas compose starts, on the port they listen on, learning sessions from responses.
    const cfg = readFileSync(path.join(dir, "haproxy.cfg"), "utf8")
      .split("\n")
      .map((line) => line.trim());
    expect(cfg).toEqual(
      expect.arrayContaining([
        "bind :8080",
        "balance roundrobin",
        "stick store-response res.hdr(mcp-session-id)",
        "stick match req.hdr(mcp-session-id)",
        "server replica1 replica1:3000 check",
        "server replica2 replica2:3000 check",
      ]),
    );
    const main = readFileSync(path.join(dir, "src/main.ts"), "utf8");
    for (const name of [
      "MCP_HOST",
      "MCP_ALLOWED_HOSTS",
      "MCP_REQUEST_STATE_SECRET",
      "MCP_REQUEST_STATE_PREVIOUS_SECRETS",
      "REDIS_URL",
      "MCP_TASKS_REDIS_PREFIX",
    ])
      expect(main, name).toContain(name);
    expect(main).toContain("    // taskStore: redisTaskStore(");
    expect(main).toContain("    // requestStateSecret: ");
    expect(readFileSync(path.join(dir, "README.md"), "utf8")).toContain("## Several replicas");
  });

  it("refuses a folder that is not empty, and with --force adds only what is missing", () => {
    const dir = tempProject({ "README.md": "my notes\n" });
    const refused = mcpgen(["init", "--name", "kept"], dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "mcpgen: .: error invalid-argument: the folder is not empty; init writes into an empty folder; use --force to add the files that are missing (existing files are never overwritten)\n",
    );
    expect(existsSync(path.join(dir, "package.json"))).toBe(false);
    const forced = mcpgen(["init", "--name", "kept", "--force"], dir);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toBe("mcpgen: kept README.md (it exists; not overwritten)\n");
    expect(readFileSync(path.join(dir, "README.md"), "utf8")).toBe("my notes\n");
    expect(existsSync(path.join(dir, "manifests/kept.yaml"))).toBe(true);
    // A second init --force writes nothing new and overwrites nothing.
    writeFileSync(path.join(dir, "src/main.ts"), "// mine\n");
    expect(mcpgen(["init", "--name", "kept", "--force"], dir).code).toBe(0);
    expect(readFileSync(path.join(dir, "src/main.ts"), "utf8")).toBe("// mine\n");
  });

  it("rejects a name that cannot be a server name", () => {
    const r = mcpgen(["init", "x", "--name", "Bad_Name"], tempProject());
    expect(r.code).toBe(2);
    // A command-line problem is a diagnostic whose location is the argument as typed.
    expect(r.stderr).toBe(
      `mcpgen: --name "Bad_Name": error invalid-argument: not a server name; use lowercase letters, digits and '-' (e.g. --name my-server)\n`,
    );
    const folder = mcpgen(["init", "___"], tempProject());
    expect(folder).toMatchObject({
      code: 2,
      stderr: `mcpgen: ___: error invalid-argument: cannot make a server name from the folder name "___"; use lowercase letters, digits and '-' (e.g. --name my-server)\n`,
    });
    expect(mcpgen(["init", "a", "b"], tempProject()).code).toBe(2);
  });

  it("--target: deno and bun put their entry in place of Node's and no compose; lambda and workers add theirs; others are usage errors", () => {
    const parent = tempProject();
    const files = (target: string) => {
      const r = mcpgen(["init", target, "--target", target, "--mcpgen", "file:../mcpgen"], parent);
      expect(r.code).toBe(0);
      const dir = path.join(parent, target);
      return {
        dir,
        r,
        top: readdirSync(dir).sort(),
        src: readdirSync(path.join(dir, "src")).sort(),
        pkg: JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")),
      };
    };
    const deno = files("deno");
    expect(deno.top).toEqual([
      ".gitignore",
      "README.md",
      "deno.json",
      "generated",
      "manifests",
      "mcpgen.config.json",
      "package.json",
      "src",
      "test",
      "tsconfig.json",
      "vendor",
    ]);
    expect(readFileSync(path.join(deno.dir, "src/main.ts"), "utf8")).toContain("Deno.serve(");
    expect(deno.pkg.scripts.start).toBe("deno task start");
    expect(deno.r.stdout).toContain("deno task start      # on Deno: stdio; deno task start --http 3000 for Streamable HTTP");
    const bun = files("bun");
    expect(bun.top).not.toContain("compose.yaml");
    expect(readFileSync(path.join(bun.dir, "src/main.ts"), "utf8")).toContain("Bun.serve(");
    expect(bun.pkg.scripts.start).toBe("bun run src/main.ts");
    const lambda = files("lambda");
    expect(lambda.src).toEqual(["handlers", "lambda.ts", "main.ts"]);
    expect(lambda.pkg.scripts.start).toBe("node dist/src/main.js");
    expect(readFileSync(path.join(lambda.dir, "README.md"), "utf8")).toContain("## AWS Lambda");
    const workers = files("workers");
    expect(workers.src).toEqual(["handlers", "main.ts", "worker.ts"]);
    expect(workers.top).toContain("wrangler.jsonc");
    expect(workers.top).not.toContain("compose.yaml");
    expect(readFileSync(path.join(workers.dir, "src/worker.ts"), "utf8")).toContain("export default { fetch: (request: Request) => handler(request) };");
    expect(readFileSync(path.join(workers.dir, "README.md"), "utf8")).toContain("## Cloudflare Workers");
    expect(workers.r.stdout).toContain("npx wrangler deploy  # to Cloudflare");
    // With --auth, the generated entry passes the part whose import of jose a Worker's bundler follows.
    const guarded = mcpgen(["init", "wa", "--target", "workers", "--auth"], parent);
    expect(guarded).toMatchObject({ code: 0, stderr: "" });
    expect(readFileSync(path.join(parent, "wa/generated/wa/fetch.ts"), "utf8")).toContain('import { jwtAuthGate } from "@mcpgen/runtime/server/auth/jwt";');
    expect(readFileSync(path.join(parent, "wa/README.md"), "utf8")).toContain("MCP_AUTH_RESOURCE=http://localhost:8787/mcp");
    expect(mcpgen(["init", "w", "--target", "vercel"], parent)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--target takes node, deno, bun, lambda, workers, not "vercel"'),
    });
  });
});

/**
 * What `mcpgen pull` writes about a server's command line: every credential as `...`, and every
 * name that says what to fill in (flag, header, variable, JSON key, URL host and path) kept, as a
 * command a shell still runs. Each row: the command's words -> the command as the header shows it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { redactCommand, redactUrl, showCommand } from "../../src/common/redact.js";
import { mcpgen } from "../helpers/cli.js";
import { tempProject } from "../helpers/tmp.js";

type Row = [string, { given: string[]; want: string }];

/** Credentials each form used to leak verbatim: each row fails on the redaction before these rules. */
const hidden: Row[] = [
  ["a one-letter flag's value (-k)", { given: ["server", "-k", "hunter2"], want: "server -k ..." }],
  ["a one-letter flag's value (-p)", { given: ["db-mcp", "--host", "db.local", "-p", "hunter2"], want: "db-mcp --host db.local -p ..." }],
  ["a one-letter flag's inline value", { given: ["server", "-k=hunter2"], want: "server -k=..." }],
  ["env NAME=value before the command", { given: ["env", "API_KEY=abc", "node", "server.js"], want: "env API_KEY=... node server.js" }],
  ["NAME=value after the package", { given: ["npx", "-y", "server", "FOO_TOKEN=x"], want: "npx -y server FOO_TOKEN=..." }],
  ["NAME=value whose name says nothing", { given: ["env", "DB=prod-hunter2", "node", "s.js"], want: "env DB=... node s.js" }],
  [
    "docker -e NAME=value",
    {
      given: ["docker", "run", "-i", "--rm", "-e", "GITHUB_TOKEN=abc123", "ghcr.io/github/github-mcp-server"],
      want: "docker run -i --rm -e GITHUB_TOKEN=... ghcr.io/github/github-mcp-server",
    },
  ],
  [
    "--header Authorization: Bearer (mcp-remote)",
    {
      given: ["npx", "mcp-remote", "https://host/mcp", "--header", "Authorization: Bearer abc"],
      want: "npx mcp-remote https://host/mcp --header 'Authorization: ...'",
    },
  ],
  [
    "--header Name:value without a space (mcp-remote's form)",
    {
      given: ["npx", "mcp-remote", "https://host/mcp", "--header", "Authorization:Bearer abc"],
      want: "npx mcp-remote https://host/mcp --header Authorization:...",
    },
  ],
  ["-H X-Api-Key (curl's form)", { given: ["bridge", "-H", "X-Api-Key: abc"], want: "bridge -H 'X-Api-Key: ...'" }],
  ["--header=Name: value inline", { given: ["bridge", "--header=X-Api-Key: abc"], want: "bridge '--header=X-Api-Key: ...'" }],
  ["any header's value, not only credential-named ones", { given: ["bridge", "--header", "X-Tenant: acme-7731"], want: "bridge --header 'X-Tenant: ...'" }],
  [
    "--headers as a JSON object",
    { given: ["bridge", "--headers", '{"Authorization":"Bearer x","X-Trace":"1"}'], want: `bridge --headers '{"Authorization":"...","X-Trace":"..."}'` },
  ],
  [
    "a URL's user, password and query values",
    { given: ["npx", "mcp-remote", "https://u:p@host/mcp?key=abc"], want: "npx mcp-remote 'https://...:...@host/mcp?key=...'" },
  ],
  [
    "every query value of a URL",
    { given: ["npx", "mcp-remote", "https://host/mcp?token=abc&tenant=acme"], want: "npx mcp-remote 'https://host/mcp?token=...&tenant=...'" },
  ],
  ["a URL's user alone", { given: ["bridge", "https://abc123@host/mcp"], want: "bridge https://...@host/mcp" }],
  [
    "a key-shaped URL path segment",
    { given: ["npx", "mcp-remote", "https://mcp.example.com/s/sk-abcdef1234567890/mcp"], want: "npx mcp-remote https://mcp.example.com/s/.../mcp" },
  ],
  ["a URL fragment's values", { given: ["bridge", "https://host/cb#access_token=abc&state=1"], want: "bridge 'https://host/cb#access_token=...&state=...'" }],
  [
    "a URL as a variable's value",
    { given: ["env", "DATABASE_URL=postgres://admin:pw@db:5432/app", "mcp-postgres"], want: "env DATABASE_URL=postgres://...:...@db:5432/app mcp-postgres" },
  ],
  ["a URL as a flag's value", { given: ["server", "--url", "https://u:p@host/x?sig=abc"], want: "server --url 'https://...:...@host/x?sig=...'" }],
  ["a JSON argument", { given: ["server", '{"apiKey":"abc"}'], want: `server '{"apiKey":"..."}'` }],
  [
    "nested JSON",
    {
      given: ["server", '{"server":{"auth":{"token":"abc"}},"port":3000,"name":"demo"}'],
      want: `server '{"server":{"auth":{"token":"..."}},"port":3000,"name":"demo"}'`,
    },
  ],
  [
    "JSON arrays, URLs and key-shaped strings in JSON",
    { given: ["server", '[{"url":"https://u:p@h/x"},"sk-abcdef1234567890"]'], want: `server '[{"url":"https://...:...@h/x"},"..."]'` },
  ],
  ["a secret-named JSON key holding a number", { given: ["server", '{"pin":1234,"retries":3}'], want: `server '{"pin":"...","retries":3}'` }],
  ["JSON as a flag's inline value", { given: ["server", '--config={"password":"abc"}'], want: `server '--config={"password":"..."}'` }],
  ["code after -e", { given: ["node", "-e", "fetch(u,{headers:{Authorization:'Bearer abc'}})"], want: "node -e ..." }],
  ["a short credential name part", { given: ["server", "--db-pw", "abc"], want: "server --db-pw ..." }],
  ["a JWT", { given: ["server", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl"], want: "server ..." }],
  ["Bearer inside a word", { given: ["server", "Bearer abc"], want: "server 'Bearer ...'" }],
  ["a connection string", { given: ["server", "--connection", "Host=db;Password=abc"], want: "server --connection Host=..." }],
  ["a credential inside a longer word", { given: ["server", "--opts", "region=eu;password=abc"], want: "server --opts region=..." }],
  ["name: value inside code", { given: ["server", "--init", "{apiKey: 'abc', debug: true}"], want: "server --init '{apiKey: '\\''...'\\'', debug: true}'" }],
  // Issue 27, item 15: each of these was written as it was.
  [
    "a credential flag's value that starts with - (one random base64url key in 64)",
    { given: ["server", "--api-key", "-Zx9Qw7Lp3Mn"], want: "server --api-key ..." },
  ],
  ["a one-letter flag's value that starts with -", { given: ["server", "-k", "-Zx9Qw7Lp3Mn"], want: "server -k ..." }],
  ["a 43-character key that starts with -, alone", { given: ["server", "-Zx9Qw7Lp3MnAb3dEf6hIj9kLm2oPq5sTu8wXy1zA3c"], want: "server ..." }],
  [
    "a flag and its value inside a JSON array argument",
    { given: ["server", "--args", '["--api-key","hunter2","--port","3000"]'], want: `server --args '["--api-key","...","--port","3000"]'` },
  ],
  [
    "the same inside a JSON object",
    { given: ["server", '{"args":["--token","hunter2"],"command":"npx"}'], want: `server '{"args":["--token","..."],"command":"npx"}'` },
  ],
  ["user:password@host without a scheme", { given: ["psql-mcp", "admin:hunter2@db.local:5432/app"], want: "psql-mcp ...:...@db.local:5432/app" }],
  [
    "--user admin:password (curl's form), inline too",
    { given: ["server", "--user", "admin:hunter2", "--login=ops:hunter3"], want: "server --user admin:... --login=ops:..." },
  ],
  ["a ;jsessionid= path parameter", { given: ["bridge", "https://host/app;jsessionid=ABC123DEF/x"], want: "bridge 'https://host/app;jsessionid=.../x'" }],
  [
    "a PEM private key as an argument",
    {
      given: ["server", "-----BEGIN RSA PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END RSA PRIVATE KEY-----"],
      want: "server '-----BEGIN RSA PRIVATE KEY-----...-----END RSA PRIVATE KEY-----'",
    },
  ],
  [
    "a PEM private key inside JSON",
    {
      given: ["server", '{"pem":"-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAA\\n-----END OPENSSH PRIVATE KEY-----"}'],
      want: `server '{"pem":"-----BEGIN OPENSSH PRIVATE KEY-----...-----END OPENSSH PRIVATE KEY-----"}'`,
    },
  ],
];

/** What must stay visible for the header to be useful (and did before). */
const kept: Row[] = [
  [
    "a scoped package after npx -y",
    { given: ["npx", "-y", "@modelcontextprotocol/server-everything"], want: "npx -y @modelcontextprotocol/server-everything" },
  ],
  ["a package with a version, --port", { given: ["npx", "-y", "@scope/pkg@1.2.3", "--port", "3000"], want: "npx -y @scope/pkg@1.2.3 --port 3000" }],
  [
    "an unscoped package and a plain URL",
    { given: ["npx", "-y", "mcp-remote@latest", "https://example.com/mcp"], want: "npx -y mcp-remote@latest https://example.com/mcp" },
  ],
  [
    "file paths and -p PORT",
    { given: ["node", "/srv/mcp/server.js", "-p", "3000", "-c", "./config.yaml"], want: "node /srv/mcp/server.js -p 3000 -c ./config.yaml" },
  ],
  [
    "python -m module",
    {
      given: ["python3", "-m", "mcp_server_time", "--local-timezone", "America/New_York"],
      want: "python3 -m mcp_server_time --local-timezone America/New_York",
    },
  ],
  ["uvx and a long flag's value", { given: ["uvx", "mcp-server-fetch", "--user-agent", "my-bot"], want: "uvx mcp-server-fetch --user-agent my-bot" }],
  [
    "docker: -e VARIABLE (its value comes from the environment), volumes, an image",
    {
      given: ["docker", "run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "-v", "/data:/data", "ghcr.io/github/github-mcp-server:v1"],
      want: "docker run -i --rm -e GITHUB_PERSONAL_ACCESS_TOKEN -v /data:/data ghcr.io/github/github-mcp-server:v1",
    },
  ],
  ["deno -A jsr:", { given: ["deno", "run", "-A", "jsr:@scope/server"], want: "deno run -A jsr:@scope/server" }],
  [
    "harmless variables",
    {
      given: ["env", "NODE_ENV=production", "LOG_LEVEL=debug", "PORT=8080", "CONFIG=/etc/mcp.json", "node", "s.js"],
      want: "env NODE_ENV=production LOG_LEVEL=debug PORT=8080 CONFIG=/etc/mcp.json node s.js",
    },
  ],
  ["a transport word after -t", { given: ["server", "-t", "stdio", "-v"], want: "server -t stdio -v" }],
  [
    "where a credential is, not the credential",
    {
      given: ["server", "--token-file", "/run/secrets/token", "--api-key-env", "MY_API_KEY", "API_KEY_FILE=/run/k"],
      want: "server --token-file /run/secrets/token --api-key-env MY_API_KEY API_KEY_FILE=/run/k",
    },
  ],
  ["--no-auth takes no value", { given: ["server", "--no-auth", "server.js"], want: "server --no-auth server.js" }],
  ["a Windows path", { given: ["node", "C:\\mcp\\server.js", "-d", "C:\\data"], want: "node 'C:\\mcp\\server.js' -d 'C:\\data'" }],
  [
    "a URL path with @ and a harmless bare query word",
    { given: ["bridge", "https://unpkg.com/@scope/pkg@1.0.0/x?debug"], want: "bridge 'https://unpkg.com/@scope/pkg@1.0.0/x?debug'" },
  ],
  [
    "JSON without credentials",
    { given: ["server", '{"mode":"read-only","limit":10,"tags":["a","b"]}'], want: `server '{"mode":"read-only","limit":10,"tags":["a","b"]}'` },
  ],
  [
    "flags after a credential flag, a docker digest, a user without a password, negative numbers",
    {
      given: ["server", "img:1.0@sha256:abcdef", "--api-key", "-v", "--user", "admin", "--user-agent", "bot:1", "-p", "-1"],
      want: "server img:1.0@sha256:abcdef --api-key -v --user admin --user-agent bot:1 -p -1",
    },
  ],
  [
    "what was redacted before still is",
    {
      given: ["server", "--api-key", "hunter2", "--token=abc", "-token", "abc", "sk-live-0123456789abcdef"],
      want: "server --api-key ... --token=... -token ... ...",
    },
  ],
];

describe("redaction of a server's command line", () => {
  it.each([...hidden, ...kept])("%s", (_name, { given, want }) => {
    expect(showCommand(given)).toBe(`\`${want}\``);
  });

  it("keeps the command runnable: a shell splits the shown line into the redacted words", () => {
    for (const [name, { given }] of [...hidden, ...kept]) {
      const line = redactCommand(given)
        .map((w) => `'${w.replace(/'/g, "'\\''")}'`)
        .join(" ");
      const shown = showCommand(given).slice(1, -1);
      const words = execFileSync("sh", ["-c", `for w in ${shown}; do printf '%s\\0' "$w"; done`], { encoding: "utf8" })
        .split("\0")
        .slice(0, -1);
      const expected = execFileSync("sh", ["-c", `for w in ${line}; do printf '%s\\0' "$w"; done`], { encoding: "utf8" })
        .split("\0")
        .slice(0, -1);
      expect(words, name).toEqual(expected);
      expect(words.length, name).toBe(given.length);
    }
  });

  it("keeps a certificate (public), redacts only private keys", () => {
    const certificate = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";
    expect(redactCommand(["server", certificate])).toEqual(["server", certificate]);
  });

  it("takes time in proportion to a word's length (a 200 kB word: milliseconds, not the 20 s of a backtracking pattern)", () => {
    const started = Date.now();
    for (const word of [
      "a".repeat(200_000),
      "a-".repeat(100_000),
      `x=${"a:".repeat(100_000)}`,
      "{".repeat(100_000),
      `-----BEGIN PRIVATE KEY-----${"-----BEGIN PRIVATE KEY-----".repeat(5_000)}`,
      `a:${"b".repeat(200_000)}@`,
      JSON.stringify(Array.from({ length: 20_000 }, (_, i) => (i % 2 ? "x" : "--api-key"))),
    ])
      redactCommand(["server", word]);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it.each([
    ["query values", "https://host/mcp?api_key=s3cret&x=1", "https://host/mcp?api_key=...&x=..."],
    ["user and password (sent as Basic authentication)", "https://ada:pw@host/mcp", "https://host/mcp"],
    ["a key in the path", "https://mcp.example.com/api/sk-ak-0123456789abcdef/sse", "https://mcp.example.com/api/.../sse"],
    ["a plain URL", "https://example.com/mcp", "https://example.com/mcp"],
  ])("the URL pull connects to: %s", (_name, given, want) => {
    expect(redactUrl(new URL(given))).toBe(want);
  });
});

describe("mcpgen pull writes no secret from the server's command line", () => {
  it("the manifest holds none of them, and its Update line runs the same command with ... in their place", () => {
    const raw = fileURLToPath(new URL("../servers/raw-stdio.mjs", import.meta.url));
    const dir = tempProject({ "package.json": "{}" });
    const server = [
      "env",
      "API_KEY=s3cr3t01",
      "node",
      raw,
      "-k",
      "s3cr3t02",
      "FOO_TOKEN=s3cr3t03",
      "--header",
      "Authorization: Bearer s3cr3t04",
      "-H",
      "X-Api-Key: s3cr3t05",
      "https://u:s3cr3t06@host/mcp?key=s3cr3t07",
      '{"apiKey":"s3cr3t08","nested":{"token":"s3cr3t09"}}',
    ];
    const r = mcpgen(["pull", "-o", "raw.yaml", "--", ...server], dir);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const text = readFileSync(path.join(dir, "raw.yaml"), "utf8");
    expect(text).not.toMatch(/s3cr3t/);
    const shown = `env API_KEY=... node ${raw} -k ... FOO_TOKEN=... --header 'Authorization: ...' -H 'X-Api-Key: ...' 'https://...:...@host/mcp?key=...' '{"apiKey":"...","nested":{"token":"..."}}'`;
    expect(text.split("\n").slice(0, 2)).toEqual([
      `# Pulled by mcpgen from \`${shown}\` (MCP 2025-11-25).`,
      `# Update it with: mcpgen pull -o raw.yaml -- ${shown}`,
    ]);
    // The Update line is a command: a shell splits it into mcpgen's words and the server's, each credential as ...
    const again = text.split("\n")[1]!.slice("# Update it with: ".length);
    const words = execFileSync("sh", ["-c", `for w in ${again}; do printf '%s\\0' "$w"; done`], { encoding: "utf8" })
      .split("\0")
      .slice(0, -1);
    expect(words).toEqual(["mcpgen", "pull", "-o", "raw.yaml", "--", ...redactCommand(server)]);
    expect(words.slice(5)).toHaveLength(server.length);
  });

  it("nor the shapes of issue 27: a key starting with -, a flag inside JSON, user:pw@host, --user, ;jsessionid=, a PEM private key", () => {
    const raw = fileURLToPath(new URL("../servers/raw-stdio.mjs", import.meta.url));
    const dir = tempProject({ "package.json": "{}" });
    const server = [
      "node",
      raw,
      "--api-key",
      "-s3cr3t10Zx9Qw7",
      "--args",
      '["--token","s3cr3t11"]',
      "admin:s3cr3t12@db.local:5432/app",
      "--user",
      "admin:s3cr3t13",
      "https://host/app;jsessionid=s3cr3t14/x",
      "-----BEGIN PRIVATE KEY-----\ns3cr3t15\n-----END PRIVATE KEY-----",
    ];
    const r = mcpgen(["pull", "-o", "raw.yaml", "--", ...server], dir);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const text = readFileSync(path.join(dir, "raw.yaml"), "utf8");
    expect(text).not.toMatch(/s3cr3t/);
    expect(text.split("\n")[0]).toBe(
      `# Pulled by mcpgen from \`node ${raw} --api-key ... --args '["--token","..."]' ...:...@db.local:5432/app --user admin:... 'https://host/app;jsessionid=.../x' '-----BEGIN PRIVATE KEY-----...-----END PRIVATE KEY-----'\` (MCP 2025-11-25).`,
    );
  });
});

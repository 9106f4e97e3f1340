/** model/cache.ts: the 2026-07-28 cache hints, the manifest's `cache:` over mcpgen's defaults. */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../../../src/common/objects.js";
import { modelOf } from "../../../helpers/model.js";

const SERVER = "server: {name: s, version: '1'}\n";
const PUBLIC = { ttlMs: 300_000, cacheScope: "public" };
const PRIVATE = { ttlMs: 0, cacheScope: "private" };
const LISTS = { "server/discover": PUBLIC, "tools/list": PUBLIC, "prompts/list": PUBLIC, "resources/list": PUBLIC, "resources/templates/list": PUBLIC };

describe("cache hints", () => {
  const cases: [string, { given: string; want: JsonObject }][] = [
    ["the defaults: lists public for 5 minutes, reads private and not cached", { given: "", want: { ...LISTS, "resources/read": PRIVATE } }],
    [
      "a method's hint, and a field of it alone over the default",
      {
        given: "cache: {tools/list: {ttlMs: 1000, cacheScope: private}, prompts/list: {ttlMs: 5}}\n",
        want: { ...LISTS, "tools/list": { ttlMs: 1000, cacheScope: "private" }, "prompts/list": { ttlMs: 5, cacheScope: "public" }, "resources/read": PRIVATE },
      },
    ],
    [
      "a static resource is public, one a handler serves private, each over by its own `cache:`",
      {
        given:
          "resources:\n  - {uri: 'a://static', name: s, text: x}\n  - {uri: 'a://live', name: l}\n  - {uri: 'a://mine', name: m, cache: {cacheScope: public}}\n",
        want: {
          ...LISTS,
          "resources/read": PRIVATE,
          resources: { "a://static": PUBLIC, "a://live": PRIVATE, "a://mine": { ttlMs: 0, cacheScope: "public" } },
        },
      },
    ],
    [
      "`resources/read` in the manifest is every resource's and template's default, static or not",
      {
        given:
          "cache: {resources/read: {ttlMs: 60}}\nresources:\n  - {uri: 'a://static', name: s, text: x}\nresourceTemplates:\n  - {uriTemplate: 'a://{id}', name: t}\n  - {uriTemplate: 'b://{id}', name: u, cache: {ttlMs: 7}}\n",
        want: {
          ...LISTS,
          "resources/read": { ttlMs: 60, cacheScope: "private" },
          resources: { "a://static": { ttlMs: 60, cacheScope: "private" } },
          resourceTemplates: { t: { ttlMs: 60, cacheScope: "private" }, u: { ttlMs: 7, cacheScope: "private" } },
        },
      },
    ],
  ];
  it.each(cases)("%s", async (_, { given, want }) => {
    expect((await modelOf(SERVER + given)).cache).toEqual(want);
  });
});

// client/src/rulePagePaths.ts: every relative link of a shipped rule page (and of the pages they link to)
// opens a file the .vsix holds, as the Markdown preview resolves it against `lwir-rule:/CODE.md`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ruleLinksAsCommands, rulePageCandidates } from "../../client/src/rulePagePaths";

const ROOT = process.cwd();

/** What the preview makes of `link` in the page at `lwir-rule:/<page>`: a path under the scheme's root. */
function resolveAgainst(page: string, link: string): string {
  const base = page.split("/").slice(0, -1);
  for (const part of link.split("/")) {
    if (part === "..") base.pop();
    else if (part !== ".") base.push(part);
  }
  return `/${base.join("/")}`;
}

test("a rule page's code, `../type-checks.md` and `rules/CODE.md` all find their file; nothing else is read", () => {
  assert.deepEqual(rulePageCandidates("/model.disallowed.md"), ["docs/rules/model.disallowed.md", "docs/model.disallowed.md"]);
  assert.deepEqual(rulePageCandidates(resolveAgainst("lwir.unknown_property.md", "../type-checks.md")), ["docs/rules/type-checks.md", "docs/type-checks.md"]);
  assert.deepEqual(rulePageCandidates("/rules/lwir.items_not_array.md"), ["docs/rules/lwir.items_not_array.md", "docs/lwir.items_not_array.md"]);
  assert.equal(rulePageCandidates("/../../package.json"), undefined);
  assert.equal(rulePageCandidates("/.secret.md"), undefined);
  assert.equal(rulePageCandidates("/a/b.md"), undefined);
});

test("every relative .md link of the rule pages, and of the docs pages they link to, opens an existing file", () => {
  const pages = readdirSync(join(ROOT, "docs", "rules")).filter((f) => f.endsWith(".md"));
  const broken: string[] = [];
  const seen = new Set<string>();
  const visit = (uriPath: string, file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, link] of readFileSync(join(ROOT, file), "utf8").matchAll(/\]\(([^)#\s:]+\.md)(#[^)]*)?\)/g)) {
      const target = resolveAgainst(uriPath.replace(/^\//, ""), link);
      const found = rulePageCandidates(target)?.find((c) => existsSync(join(ROOT, c)));
      if (!found) broken.push(`${file}: ${link}`);
      else if (found.startsWith("docs/") && !found.startsWith("docs/rules/")) visit(target, found);
    }
  };
  for (const page of pages) visit(`/${page}`, `docs/rules/${page}`);
  assert.deepEqual(broken, []);
});

test("a hover's rule-page link becomes a command link with the page's URI; other links and text stay", () => {
  const hover = "**`model.disallowed`**\n\n[Examples and details of `model.disallowed`](lwir-rule:/model.disallowed.md) and [a site](https://example.org)";
  const out = ruleLinksAsCommands(hover, "lwir-rule")!;
  const link = /\]\(command:lwir\.openRulePage\?([^)]+)\)/.exec(out);
  assert.ok(link, out);
  assert.deepEqual(JSON.parse(decodeURIComponent(link[1])), ["lwir-rule:/model.disallowed.md"]);
  assert.ok(out.includes("[a site](https://example.org)"));
  assert.ok(out.startsWith("**`model.disallowed`**\n\n[Examples and details of `model.disallowed`]("));
  assert.equal(ruleLinksAsCommands("no links here", "lwir-rule"), undefined);
});

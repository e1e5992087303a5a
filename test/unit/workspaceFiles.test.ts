// The workspace scan's pure decisions: glob matching, which files and folders it looks at, URIs ⇄ paths.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { excludeGlobs, globToRegExp, GlobSet } from "../../server/src/workspace/glob";
import { childUri, FileFilter, formatCount, isAtOrBelow, relativePathIn } from "../../server/src/workspace/files";
import { watchersFor } from "../../server/src/lsp/watchedFiles";

const matches = (glob: string, path: string) => globToRegExp(glob).test(path);

describe("globs", () => {
  test("** spans folders, * and ? stay within one", () => {
    assert.ok(matches("**/*.lwir.json", "a.lwir.json"));
    assert.ok(matches("**/*.lwir.json", "x/y/a.lwir.json"));
    assert.ok(!matches("*.lwir.json", "x/a.lwir.json"));
    assert.ok(matches("flows/*.yaml", "flows/a.yaml"));
    assert.ok(!matches("flows/*.yaml", "flows/deep/a.yaml"));
    assert.ok(matches("flows/**/*.yaml", "flows/deep/er/a.yaml"));
    assert.ok(matches("flows/**/*.yaml", "flows/a.yaml"));
    assert.ok(matches("gen/**", "gen/a/b.lwir.json"));
    assert.ok(matches("a?.yml", "ab.yml"));
    assert.ok(!matches("a?.yml", "a/.yml"));
    assert.ok(matches("**/node_modules", "x/node_modules"));
  });

  test("braces, classes, a leading ./ and characters that mean something in a regular expression", () => {
    assert.ok(matches("**/*.lwir.{json,yaml,yml}", "d/x.lwir.yml"));
    assert.ok(!matches("**/*.lwir.{json,yaml,yml}", "d/x.lwir.txt"));
    assert.ok(matches("{a,b/{c,d}}/*.json", "b/d/x.json"));
    assert.ok(matches("[ab]x.json", "bx.json"));
    assert.ok(!matches("[!ab]x.json", "ax.json"));
    assert.ok(matches("./top.json", "top.json"));
    assert.ok(matches("a+(b).json", "a+(b).json"));
    assert.ok(!matches("a.json", "aXjson"));
    // Unbalanced patterns match themselves rather than throwing.
    assert.ok(matches("a{b.json", "a{b.json"));
    assert.ok(matches("a[.json", "a[.json"));
  });

  test("GlobSet and the editor's files.exclude object", () => {
    assert.ok(new GlobSet([]).empty);
    assert.ok(new GlobSet(["", "**/x"]).matches("a/x"));
    assert.deepEqual(excludeGlobs({ "**/.git": true, "**/off": false, "**/*.js": { when: "$(basename).ts" } }), ["**/.git"]);
    assert.deepEqual(excludeGlobs(["a", 1, "b"]), ["a", "b"]);
    assert.deepEqual(excludeGlobs(null), []);
  });
});

describe("which files the workspace scan looks at", () => {
  const filter = new FileFilter({ include: ["flows/*.yaml"], exclude: ["generated/**"], editorExclude: ["**/.hidden"] });

  test("LWIR names anywhere, include globs, and nothing excluded", () => {
    assert.ok(filter.takesFile("a.lwir.json"));
    assert.ok(filter.takesFile("x/b.LWIR.YML"));
    assert.ok(filter.takesFile("flows/c.yaml"));
    assert.ok(!filter.takesFile("other/c.yaml"));
    assert.ok(!filter.takesFile("generated/d.lwir.json"));
    assert.ok(!filter.takesFile("readme.md"));
  });

  test("an editor's lock file is not a workflow (Emacs' .#name, a dangling link beside the edited file)", () => {
    assert.ok(!filter.takesFile(".#a.lwir.yaml"));
    assert.ok(!filter.takesFile("x/.#b.lwir.json"));
    assert.ok(filter.takesFile("x/.b.lwir.json"), "a hidden LWIR file is one");
  });

  test("node_modules and .git are never entered; excluded folders neither", () => {
    assert.ok(filter.skipsFolder("node_modules"));
    assert.ok(filter.skipsFolder("a/b/node_modules"));
    assert.ok(filter.skipsFolder(".git"));
    assert.ok(filter.skipsFolder("x/.hidden"));
    assert.ok(!filter.skipsFolder("src"));
    assert.ok(!filter.takesPath("a/node_modules/p/x.lwir.json"));
    assert.ok(!filter.takesPath("x/.hidden/y.lwir.json"));
    assert.ok(filter.takesPath("x/visible/y.lwir.json"));
  });

  test("URIs relative to a folder", () => {
    assert.equal(relativePathIn("file:///w", "file:///w/a%20b/c.lwir.json"), "a b/c.lwir.json");
    assert.equal(relativePathIn("file:///w/", "file:///w/c.lwir.json"), "c.lwir.json");
    assert.equal(relativePathIn("file:///w", "file:///wx/c.lwir.json"), undefined);
    assert.equal(childUri("file:///w/", "a b#.json"), "file:///w/a%20b%23.json");
    assert.ok(isAtOrBelow("file:///w/d", "file:///w/d/x.json"));
    assert.ok(isAtOrBelow("file:///w/d", "file:///w/d"));
    assert.ok(!isAtOrBelow("file:///w/d", "file:///w/dx.json"));
    assert.equal(formatCount(1000), "1,000");
    assert.equal(formatCount(120), "120");
    assert.equal(formatCount(1234567), "1,234,567");
  });

  test("the file watchers: LWIR names, include globs from any depth, deletions of anything", () => {
    assert.deepEqual(watchersFor(["flows/*.yaml", "**/x.json"]), [
      { globPattern: "**/*.lwir.{json,yaml,yml}" },
      { globPattern: "**/.lwir.{yaml,json}" },
      { globPattern: "**/flows/*.yaml" },
      { globPattern: "**/x.json" },
      { globPattern: "**/*", kind: 4 },
    ]);
  });
});

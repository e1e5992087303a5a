// What ships: the .vsix of plain `vsce package` (`npm run package`), built as vsce builds it (its vscode:prepublish
// step makes the production bundles and the packaged README, scripts/package.mjs), read back entry by entry. The package is made in a copy of the project so that
// the production build does not replace the dist/ that other tests are running at the same time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { inflateRawSync } from "node:zlib";
import { pathToFileURL } from "node:url";

const ROOT = process.cwd();
const scripts = async () => ({
  ...(await import(pathToFileURL(join(ROOT, "scripts", "package.mjs")).href)) as { packagedMarkdown(markdown: string, home: string): string },
  ...(await import(pathToFileURL(join(ROOT, "scripts", "bundle.mjs")).href)) as { publicHome(manifest: unknown): string },
});
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** The entries of a zip archive (stored or deflated, as vsce writes them), by name. */
function readZip(zip: Buffer): Map<string, Buffer> {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  assert.ok(end >= 0, "the .vsix is a zip archive");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let n = 0; n < count; n++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, "central directory entry");
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataAt, dataAt + compressedSize);
    assert.ok(method === 0 || method === 8, `${name}: compression method ${method}`);
    entries.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * Packs the project with plain `vsce package` (no flags: what a user types, and what `npm run package` runs), in
 * a copy of it; returns the .vsix's entries.
 */
function packInCopy(): Map<string, Buffer> {
  const work = mkdtempSync(join(tmpdir(), "lwir-vsix-"));
  const copy = join(work, "project");
  const skip = new Set(["node_modules", ".git", "out", "dist", ".e2e-cache", "test-results", join("bench", "tmp")]);
  try {
    cpSync(ROOT, copy, {
      recursive: true,
      filter: (src) => {
        const rel = relative(ROOT, src);
        return !skip.has(rel) && !rel.endsWith(".vsix");
      },
    });
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
    assert.equal(manifest.scripts.package, "vsce package");
    // stdin closed: vsce asks questions on a terminal when the manifest lacks something; here it must fail instead
    const res = spawnSync(join(copy, "node_modules", ".bin", "vsce"), ["package"],
      { cwd: copy, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    assert.equal(res.status, 0, res.stderr + res.stdout);
    assert.match(res.stdout, /vscode:prepublish/, "vsce ran the production build");
    assert.doesNotMatch(res.stdout + res.stderr, /WARNING|Do you want to continue/, "vsce packs without a warning or a question");
    return readZip(readFileSync(join(copy, `${manifest.name}-${manifest.version}.vsix`)));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const entries = packInCopy();
const files = [...entries.keys()].sort();
const text = (name: string): string => {
  const data = entries.get(name);
  assert.ok(data, `${name} is in the .vsix`);
  return data.toString("utf8");
};

/** The files the manifest itself points at, as package paths. */
function manifestFiles(): string[] {
  const paths: string[] = [manifest.icon, manifest.main, manifest.browser, ...Object.values(manifest.bin as Record<string, string>),
    ...manifest.contributes.grammars.map((g: { path: string }) => g.path),
    ...(manifest.contributes.jsonValidation ?? []).map((j: { url: string }) => j.url).filter((u: string) => !/^[a-z]+:/i.test(u))];
  return paths.map((p) => `extension/${p.replace(/^\.\//, "")}${/\.[a-z]+$/i.test(p) ? "" : ".js"}`);
}

test("the .vsix holds exactly what a user needs", () => {
  const exact = [
    "[Content_Types].xml", "extension.vsixmanifest",
    "extension/package.json", "extension/readme.md", "extension/changelog.md", "extension/LICENSE.txt", "extension/images/icon.png",
    "extension/dist/extension.js", "extension/dist/server.js", "extension/dist/server-main.js", "extension/bundle/lwir.js", "extension/bundle/lwir-mcp.js", "extension/dist/graph-layout-worker.js",
    // the rule pages diagnostics open (client/src/rulePages.ts), and what the README links to and shows
    ...readdirSync(join(ROOT, "docs", "rules")).filter((f) => f.endsWith(".md")).map((f) => `extension/docs/rules/${f}`),
    ...readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `extension/docs/${f}`),
    ...readdirSync(join(ROOT, "docs", "images")).filter((f) => /\.(png|gif)$/.test(f)).map((f) => `extension/docs/images/${f}`),
    "extension/CONTRIBUTING.md",
    "extension/dist/web/extension.js", "extension/dist/web/server.js", "extension/dist/webview/graph.js",
    ...manifest.contributes.grammars.map((g: { path: string }) => `extension/${g.path.replace(/^\.\//, "")}`),
  ];
  // JSON Schemas for editors without our server: any number, each a JSON file straight under schemas/
  const optional = [/^extension\/schemas\/[^/]+\.json$/];
  const unexpected = files.filter((f) => !exact.includes(f) && !optional.some((p) => p.test(f)));
  assert.deepEqual(unexpected, [], "files in the .vsix that a user does not need");
  assert.deepEqual(exact.filter((f) => !files.includes(f)), [], "files missing from the .vsix");
  assert.deepEqual(manifestFiles().filter((f) => !files.includes(f)), [], "files package.json names but the .vsix lacks");
  assert.deepEqual(files.filter((f) => /\.(map|ts)$|\/(src|test|node_modules)\//.test(f)), []);
  for (const f of files.filter((x) => x.endsWith(".json"))) assert.doesNotThrow(() => JSON.parse(text(f)), f);
  const shipped = JSON.parse(text("extension/package.json"));
  assert.equal(shipped.capabilities.untrustedWorkspaces.supported, true);
  assert.equal(shipped.capabilities.virtualWorkspaces, true);
});

test("the bundles are minified and name no source map", () => {
  const bundles = files.filter((f) => f.startsWith("extension/dist/") || f.startsWith("extension/bundle/"));
  assert.equal(bundles.length, 9); // extension, server loader and bundle, graph layout worker, CLI and lwir mcp (the committed bundles), web extension and server, graph webview
  // The CLI and lwir mcp's bundle are the committed bundles as they are (test/unit/bundle.test.ts: fresh minified
  // builds); their rule pages are strings with line breaks, so the line count says nothing about them.
  const committed = ["lwir.js", "lwir-mcp.js"];
  for (const name of committed) {
    assert.ok(entries.get(`extension/bundle/${name}`)!.equals(readFileSync(join(ROOT, "bundle", name))), `the .vsix's bundle/${name} is not the committed one`);
  }
  for (const f of bundles.filter((b) => !committed.some((name) => b === `extension/bundle/${name}`))) {
    const js = text(f);
    assert.doesNotMatch(js, /sourceMappingURL/, `${f} points at a source map the .vsix does not hold`);
    // a readable esbuild bundle has about 40 bytes a line; a minified one thousands, or (the server's
    // small loader, dist/server.js) fits on a line or two
    const lines = js.split("\n").length;
    assert.ok(js.length / lines > 1000 || lines <= 2, `${f}: ${js.length} bytes in ${lines} lines is not minified`);
  }
  assert.match(text("extension/bundle/lwir.js"), /^#!\/usr\/bin\/env node\n/, "the CLI keeps its shebang line");
});

/** The link and image targets of a Markdown text: inline ones and reference definitions, outside code. */
function markdownTargets(markdown: string): { images: string[]; pages: string[] } {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "").replace(/`[^`\n]+`/g, "");
  const images = [...prose.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g), ...prose.matchAll(/<img[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]);
  const pages = [...prose.matchAll(/(?<!!)\[(?:[^\][]|\[[^\][]*\])*\]\(([^)\s]+)\)/g), ...prose.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)]
    .map((m) => m[1]).filter((u) => !u.startsWith("#"));
  return { images, pages };
}

test("the packaged README's and changelog's links are relative, to files the .vsix holds (no public home to point at)", async () => {
  assert.equal((await scripts()).publicHome(manifest), "");
  const inside = (url: string) => files.includes(`extension/${decodeURIComponent(url.replace(/#.*$/, ""))}`);
  for (const doc of ["extension/readme.md", "extension/changelog.md"]) {
    const { images, pages } = markdownTargets(text(doc));
    // vsce takes only HTTPS images, and there is no home to serve them from: the screenshots are links to them
    assert.deepEqual(images, [], `${doc}: images`);
    assert.deepEqual(pages.filter((url) => !/^https:\/\//.test(url) && !inside(url)), [], `${doc}: links to files the .vsix lacks`);
  }
  // every link and image of README.md is there, as a link to the same file
  const source = markdownTargets(readFileSync(join(ROOT, "README.md"), "utf8"));
  const packaged = new Set(markdownTargets(text("extension/readme.md")).pages);
  const renamed: Record<string, string> = { "CHANGELOG.md": "changelog.md", LICENSE: "LICENSE.txt" };
  assert.ok(source.images.length >= 5 && source.pages.length >= 3, "README.md shows screenshots and links to its pages");
  assert.deepEqual([...source.images, ...source.pages].filter((u) => !packaged.has(renamed[u] ?? u)), [], "README.md's targets the packaged README lacks");
});

test("packagedMarkdown: relative links become reference links (images links), or absolute against a home; code is kept", async () => {
  const { packagedMarkdown } = await scripts();
  const md = "See [the CLI](docs/cli.md#run), ![Shot](docs/images/a.png), [web](https://a.test/), [top](#x), `[c](c.md)`.\n```\n[d](d.md)\n```\n[log](CHANGELOG.md) [again](docs/cli.md#run)\n";
  assert.equal(packagedMarkdown(md, ""),
    "See [the CLI][lwir-1], [Image: Shot][lwir-2], [web](https://a.test/), [top](#x), `[c](c.md)`.\n```\n[d](d.md)\n```\n[log][lwir-3] [again][lwir-1]\n" +
    "\n[lwir-1]: docs/cli.md#run\n[lwir-2]: docs/images/a.png\n[lwir-3]: changelog.md\n");
  assert.equal(packagedMarkdown("[a](docs/a.md) ![b](docs/b.png)", "https://git.test/o/r"),
    "[a](https://git.test/o/r/blob/HEAD/docs/a.md) ![b](https://git.test/o/r/raw/HEAD/docs/b.png)");
  assert.equal(packagedMarkdown("no links", ""), "no links");
  assert.equal(packagedMarkdown("[![Shot](a.png)](b.md)", ""), "[Image: Shot][lwir-1]\n\n[lwir-1]: b.md\n");
});

test("no shipped file names the placeholder host, or any host standing in for a home the project lacks", () => {
  const named = files.filter((f) => /example\.(invalid|com)|OWNER\//.test(entries.get(f)!.toString("latin1")));
  assert.deepEqual(named, []);
  assert.equal((JSON.parse(text("extension/package.json")) as { repository?: unknown }).repository, undefined);
});

test("the README starts with the two commands a newcomer types, and CI runs the same test command", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const block = /^# [^\n]+\n+```sh\n([^`]+)```/.exec(readme);
  assert.ok(block, "README.md opens with its title and a shell block");
  const commands = block[1].trim().split("\n").map((l) => l.replace(/\s+#.*$/, ""));
  assert.deepEqual(commands, ["npm install && npm start", "npm install && npm test"]);
  assert.match(readFileSync(join(ROOT, ".ci", "run"), "utf8"), /^npm install && npm test\b/m);
});

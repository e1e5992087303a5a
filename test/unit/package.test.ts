// The extension packages into an installable .vsix (vsce, offline) with the bundles, grammars and manifest.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

test("vsce packages the extension with exactly the files it needs (as `npm run package` calls it)", () => {
  const out = join(mkdtempSync(join(tmpdir(), "lwir-vsix-")), "lwir.vsix");
  // the package script's own vsce arguments (the README's images need its base URLs), another output file
  const script: string = JSON.parse(readFileSync("package.json", "utf8")).scripts.package;
  const args = script.slice(script.indexOf("vsce package") + "vsce package".length).trim().split(/\s+/);
  const i = args.indexOf("--out");
  args.splice(i, 2, "--out", out);
  const res = spawnSync(process.execPath, ["node_modules/@vscode/vsce/vsce", "package", ...args], { encoding: "utf8", input: "" });
  assert.equal(res.status, 0, res.stderr + res.stdout);
  assert.ok(statSync(out).size > 100_000);
  const list = spawnSync(process.execPath, ["node_modules/@vscode/vsce/vsce", "ls", "--no-dependencies"], { encoding: "utf8", input: "" });
  assert.equal(list.status, 0, list.stderr);
  const files = list.stdout.trim().split("\n").map((f) => `extension/${f.trim()}`).sort();
  for (const f of ["extension/package.json", "extension/dist/extension.js", "extension/dist/server.js", "extension/dist/web/extension.js",
    "extension/dist/web/server.js", "extension/syntaxes/lwir-expression.tmLanguage.json", "extension/images/icon.png", "extension/LICENSE"]) {
    assert.ok(files.includes(f), `${f} missing from the .vsix: ${files.join(", ")}`);
  }
  assert.deepEqual(files.filter((f) => f.endsWith(".map") || f.includes("node_modules") || f.includes("/test/") || f.includes("/docs/")), []);
  const manifest = JSON.parse(readFileSync("package.json", "utf8"));
  assert.deepEqual(manifest.capabilities.untrustedWorkspaces.supported, true);
  assert.equal(manifest.capabilities.virtualWorkspaces, true);
  assert.ok(manifest.activationEvents.length > 0);
});

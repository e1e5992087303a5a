// What run.mjs (VS Code for the Web) and electron.mjs (VS Code desktop) share: the expectations computed
// before a run (the suite may run in a web worker, which cannot spawn the CLI), and the esbuild bundles of
// the one suite in test/e2e/vscode/suite/ with those expectations baked in.
import { build } from "esbuild";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, cliReport } from "../lib.mjs";

/** Where the bundles go: inside the extension folder (test-web serves extensionTestsPath from there), git-ignored. */
export const OUT = join(ROOT, "out", "e2e", "vscode");
const SUITE = join(ROOT, "test", "e2e", "vscode", "suite");

/**
 * Edits the suite makes whose diagnostics are checked against the CLI's report of the edited text.
 * `search` must occur exactly once in the file.
 */
const MUTATIONS = [
  {
    name: "json-model",
    file: "release-notes.lwir.json",
    // write-notes' model (not the fixer's a few lines above) becomes one permissions.models does not list
    search: '"model": "gpt-4o-mini",\n        "system": "You write',
    replacement: '"model": "gpt-4o",\n        "system": "You write',
  },
];

/** `canonicalJson` of server/src/lwir/canonical.ts, bundled for Node on the fly (it is TypeScript). */
async function loadCanonicalJson() {
  const result = await build({
    entryPoints: [join(ROOT, "server", "src", "lwir", "canonical.ts")],
    bundle: true, platform: "node", format: "esm", write: false, logLevel: "silent",
  });
  const code = result.outputFiles[0].text;
  const mod = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
  return mod.canonicalJson;
}

/**
 * Everything the suite compares against, for the LWIR files of `workspace`:
 * - `files[name]`: the text and `lwir validate --format json`'s entry for it;
 * - `mutations`: edits and the CLI's report of the edited text;
 * - `canonical[name]`: canonicalJson() of each valid JSON file's value (the server computes it too;
 *   the suite also checks its SHA-256 against the CLI's WorkflowVersion hash, which is independent).
 */
export async function computeExpectations(workspace) {
  const names = readdirSync(workspace).filter((n) => /\.lwir\.(json|ya?ml)$/.test(n)).sort();
  if (names.length === 0) throw new Error(`no LWIR files in ${workspace}`);
  const report = cliReport(names, workspace);
  const files = {};
  for (const entry of report.files) files[entry.file] = { text: readFileSync(join(workspace, entry.file), "utf8"), report: entry };
  for (const n of names) if (!files[n]) throw new Error(`lwir validate did not report ${n}`);

  const scratch = mkdtempSync(join(tmpdir(), "lwir-e2e-vscode-mutations-"));
  const mutations = [];
  try {
    for (const m of MUTATIONS) {
      const text = files[m.file].text;
      const at = text.indexOf(m.search);
      if (at < 0 || text.indexOf(m.search, at + 1) >= 0) throw new Error(`mutation ${m.name}: the search text must occur once in ${m.file}`);
      // Same file name (the CLI picks the format from it), own folder.
      const dir = join(scratch, m.name);
      mkdirSync(dir);
      writeFileSync(join(dir, m.file), text.slice(0, at) + m.replacement + text.slice(at + m.search.length));
      mutations.push({ ...m, report: cliReport([m.file], dir).files[0] });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  // JSON files only: JSON.parse gives their value exactly as the server reads it.
  const canonicalJson = await loadCanonicalJson();
  const canonical = {};
  for (const [name, f] of Object.entries(files)) {
    if (f.report.valid && name.endsWith(".json")) canonical[name] = canonicalJson(JSON.parse(f.text));
  }
  return { files, mutations, canonical };
}

/**
 * Bundles the suite. `target`: "web" (a CommonJS module for the web worker extension host, with mocha's
 * browser build) or "node" (for the desktop extension host; mocha stays external and is required from
 * node_modules at run time). `settings` is baked in next to the expectations (run mode, workspace).
 * Returns the bundle's absolute path (under `outDir`, which must lie inside the extension's folder).
 */
export async function bundleSuite(target, name, expectations, settings, outDir = OUT) {
  const outfile = join(outDir, target, `${name}.js`);
  const common = {
    bundle: true, format: "cjs", sourcemap: "inline", logLevel: "warning", outfile, external: ["vscode"],
    define: { __LWIR_E2E__: JSON.stringify({ ...expectations, ...settings }) },
  };
  await build(target === "web"
    ? { ...common, entryPoints: [join(SUITE, "web.ts")], platform: "browser", target: "es2022", mainFields: ["browser", "module", "main"] }
    : { ...common, entryPoints: [join(SUITE, "node.ts")], platform: "node", target: "node20", external: ["vscode", "mocha"] });
  return outfile;
}

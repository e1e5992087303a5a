#!/usr/bin/env node
// Conformance runner: runs an `lwir validate --format json` command over folders of labelled cases and
// compares what it reports with the labels (format: test/corpus/README.md).
//
//   node scripts/conformance.mjs [--cli "node dist/cli.js"] [--verbose] [--json] [FOLDER...]
//
// FOLDERs default to test/corpus/conformance and test/corpus/realworld; each is searched recursively for
// NAME.lwir.json|yaml|yml next to NAME.expected.json. A case passes when
//   - labelled: no parse error; the findings equal the label's as a multiset of {code, path}; `valid`
//     agrees; the WorkflowVersion id equals the label's (null for invalid documents); and every finding's
//     range lies inside the source node its path names: starting at the node's key or value (one quote's
//     slack), non-empty, ending within it. When the path names something absent, inside the nearest
//     ancestor that exists; for a YAML alias, inside the alias or its anchored node; `$` anywhere.
//   - syntax (`parseError: true`): reported with parse errors, no findings, not valid, no crash.
// Exit status 1 on any mismatch, on a folder without cases, on a document without a label, or when the
// command fails; 0 when every case of every folder passes. The last line sums it up.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";

const require = createRequire(import.meta.url);
const { parseTree } = require("jsonc-parser");
const YAML = require("yaml");

// ---- arguments ------------------------------------------------------------------------------------------

const argv = process.argv.slice(2);
let cli = "node dist/cli.js";
let verbose = false;
let asJson = false;
const folders = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--cli") {
    if (argv[i + 1] === undefined) usage("--cli needs a command");
    cli = argv[++i];
  } else if (argv[i] === "--verbose") verbose = true;
  else if (argv[i] === "--json") asJson = true;
  else if (argv[i] === "--help") usage();
  else if (argv[i].startsWith("--")) usage(`unknown option ${argv[i]}`);
  else folders.push(resolve(argv[i]));
}
if (folders.length === 0) folders.push(resolve("test/corpus/conformance"), resolve("test/corpus/realworld"));

function usage(problem) {
  if (problem) console.error(`conformance: ${problem}`);
  console.error('usage: node scripts/conformance.mjs [--cli "node dist/cli.js"] [--verbose] [--json] [FOLDER...]');
  process.exit(problem ? 2 : 0);
}

// ---- cases ----------------------------------------------------------------------------------------------

/** Every document below `dir` with its label; documents without a label are problems. */
function collect(dir, problems, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) { collect(file, problems, out); continue; }
    const m = /^(.*)\.lwir\.(json|yaml|yml)$/.exec(name);
    if (!m) continue;
    const labelFile = join(dir, `${m[1]}.expected.json`);
    if (!existsSync(labelFile)) { problems.push(`${name}: no label (${m[1]}.expected.json)`); continue; }
    let label;
    try { label = JSON.parse(readFileSync(labelFile, "utf8")); } catch (e) { problems.push(`${m[1]}.expected.json: not JSON (${e.message})`); continue; }
    out.push({ file, format: m[2] === "json" ? "json" : "yaml", label });
  }
  return out;
}

/** Runs the command on the files (in chunks, to stay under the argument length limit). */
function runCommand(files) {
  const [cmd, ...cmdArgs] = cli.split(/\s+/).filter(Boolean);
  const byFile = new Map();
  for (let i = 0; i < files.length; i += 200) {
    const chunk = files.slice(i, i + 200);
    let stdout;
    try {
      stdout = execFileSync(cmd, [...cmdArgs, "validate", "--format", "json", ...chunk], { encoding: "utf8", maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
    } catch (e) {
      // exit 1 means "some document has findings"; anything else is the command failing
      if (e.status !== 1 || !e.stdout) throw new Error(`the command failed (exit ${e.status ?? e.code}): ${String(e.stderr ?? e.message).slice(0, 2000)}`);
      stdout = e.stdout;
    }
    let report;
    try { report = JSON.parse(stdout); } catch { throw new Error(`the command's output is not JSON: ${stdout.slice(0, 300)}`); }
    for (const entry of report.files ?? []) byFile.set(resolve(entry.file), entry);
  }
  return byFile;
}

// ---- where a path lands in the source -------------------------------------------------------------------

/**
 * Walks a validator path (`$.a.b[0].files["x.ts"]`) down a tree. Keys are not escaped in these paths, so
 * at each object the longest actual key that fits the rest of the path wins. `node` is the tree's node
 * type: `keysOf(n)` lists an object node's keys, `member(n, key)` / `element(n, i)` step down and return
 * { node, target } or undefined. Returns the last target reached and whether the whole path was found.
 */
function walkPath(path, root, rootTarget, { keysOf, member, element }) {
  let node = root;
  let target = rootTarget;
  let i = 1;
  while (i < path.length) {
    let step;
    if (path.startsWith('["', i)) {
      const close = path.indexOf('"]', i + 2);
      let key;
      try { key = JSON.parse(path.slice(i + 1, close + 1)); } catch { return { target, found: false }; }
      step = member(node, key);
      i = close + 2;
    } else if (path[i] === "[") {
      const close = path.indexOf("]", i);
      step = element(node, Number(path.slice(i + 1, close)));
      i = close + 1;
    } else if (path[i] === ".") {
      const rest = path.slice(i + 1);
      const fits = (keysOf(node) ?? []).filter((k) => rest.startsWith(k) && (rest.length === k.length || rest[k.length] === "." || rest[k.length] === "["));
      let key = fits.sort((a, b) => b.length - a.length)[0];
      if (key === undefined) key = /^[^.[]*/.exec(rest)[0];
      step = member(node, key);
      i += 1 + key.length;
    } else return { target, found: false };
    if (!step) return { target, found: false };
    ({ node, target } = step);
  }
  return { target, found: true };
}

// A target: spans a range may lie in ([from, to]) and the offsets it may start at.
function jsonTargets(text, path) {
  const root = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  if (!root) return { targets: [{ from: 0, to: text.length, starts: [] }], found: false };
  const span = (n, keyStart) => ({ from: keyStart ?? n.offset, to: n.offset + n.length, starts: [keyStart ?? n.offset, n.offset] });
  const { target, found } = walkPath(path, root, span(root), {
    keysOf: (n) => (n.type === "object" ? n.children.map((p) => p.children[0].value) : undefined),
    member(n, key) {
      if (n.type !== "object") return undefined;
      const prop = n.children.findLast((p) => p.children[0].value === key); // a repeated key keeps its last value
      return prop?.children[1] ? { node: prop.children[1], target: span(prop.children[1], prop.offset) } : undefined;
    },
    element: (n, i) => (n.type === "array" && n.children[i] ? { node: n.children[i], target: span(n.children[i]) } : undefined),
  });
  return { targets: [target], found };
}

function yamlTargets(text, path) {
  const doc = YAML.parseDocument(text);
  const real = (n) => (YAML.isAlias(n) ? n.resolve(doc) : n);
  const root = real(doc.contents);
  if (!root?.range) return { targets: [{ from: 0, to: text.length, starts: [] }], found: false };
  const keyText = (pair) => String(YAML.isScalar(pair.key) ? pair.key.value : pair.key);
  // a value written as an alias may be reported at the alias or at the node its anchor names
  const spans = (written, keyStart) => {
    const node = real(written);
    const out = [{ from: keyStart ?? written.range[0], to: written.range[1], starts: [keyStart ?? written.range[0], written.range[0]] }];
    if (node !== written && node?.range) out.push({ from: node.range[0], to: node.range[1], starts: [node.range[0]] });
    return out;
  };
  let targets = [{ from: root.range[0], to: root.range[1], starts: [root.range[0]] }];
  const { found } = walkPath(path, root, targets, {
    keysOf: (n) => (YAML.isMap(n) ? n.items.map(keyText) : undefined),
    member(n, key) {
      if (!YAML.isMap(n)) return undefined;
      const pair = n.items.findLast((p) => keyText(p) === key);
      if (!pair) return undefined;
      if (pair.value == null) { // `key:` with nothing after it: the key is the node
        const k = pair.key.range;
        targets = [{ from: k[0], to: k[1], starts: [k[0]] }];
        return { node: null, target: targets };
      }
      targets = spans(pair.value, pair.key?.range?.[0]);
      return { node: real(pair.value), target: targets };
    },
    element(n, i) {
      if (!YAML.isSeq(n) || !n.items[i]) return undefined;
      targets = spans(n.items[i]);
      return { node: real(n.items[i]), target: targets };
    },
  });
  return { targets, found };
}

function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}
const offsetAt = (starts, p) => (p && Number.isInteger(p.line) && Number.isInteger(p.character) && p.line >= 0 && p.line < starts.length && p.character >= 0 ? starts[p.line] + p.character : NaN);

/** Whether a finding's range lies where its path says. */
function rangeFits(text, format, finding, starts) {
  const s = offsetAt(starts, finding.range?.start);
  const e = offsetAt(starts, finding.range?.end);
  if (!(s <= e && e <= text.length)) return false;
  if (finding.path === "$") return true;
  let where;
  try { where = format === "json" ? jsonTargets(text, finding.path) : yamlTargets(text, finding.path); } catch { return false; }
  return where.targets.some((t) => s >= t.from && e <= t.to &&
    (!where.found || ((e > s || t.to === t.from) && t.starts.some((at) => s === at || s === at + 1))));
}

// ---- comparing ------------------------------------------------------------------------------------------

const keyOf = (f) => `${f.path} ${f.code}`;

function checkFolder(dir) {
  const result = { folder: relative(process.cwd(), dir) || ".", labelled: 0, exact: 0, versionIds: 0, versionIdsOk: 0, ranges: 0, rangesOk: 0, syntax: 0, syntaxOk: 0, failures: [] };
  if (!existsSync(dir) || !statSync(dir).isDirectory()) { result.failures.push(`${dir}: no such folder`); return result; }
  const cases = collect(dir, result.failures);
  if (cases.length === 0) { result.failures.push(`${result.folder}: no labelled cases`); return result; }
  let reported;
  try { reported = runCommand(cases.map((c) => c.file)); } catch (e) { result.failures.push(e.message); return result; }
  for (const c of cases) {
    const name = relative(dir, c.file);
    const got = reported.get(resolve(c.file));
    if (c.label.parseError) {
      result.syntax++;
      if (got && (got.parseErrors?.length ?? 0) > 0 && (got.findings?.length ?? 0) === 0 && got.valid === false) result.syntaxOk++;
      else result.failures.push(`${name}: expected a parse error and no findings`);
      continue;
    }
    result.labelled++;
    if (!got) { result.failures.push(`${name}: not in the command's output`); continue; }
    const problems = [];
    if ((got.parseErrors?.length ?? 0) > 0) problems.push(`parse error ${JSON.stringify(got.parseErrors[0].message)}`);
    const want = (c.label.findings ?? []).map(keyOf).sort();
    const have = (got.findings ?? []).map(keyOf).sort();
    const missing = [...want], extra = [];
    for (const k of have) { const at = missing.indexOf(k); if (at >= 0) missing.splice(at, 1); else extra.push(k); }
    if (missing.length) problems.push(`missing [${missing.join(", ")}]`);
    if (extra.length) problems.push(`extra [${extra.join(", ")}]`);
    if (got.valid !== c.label.valid) problems.push(`valid ${got.valid}, label ${c.label.valid}`);
    const id = got.workflowVersion?.id ?? null;
    if (c.label.workflowVersionId) { result.versionIds++; if (id === c.label.workflowVersionId) result.versionIdsOk++; }
    if (id !== (c.label.workflowVersionId ?? null)) problems.push(`workflowVersion ${id}, label ${c.label.workflowVersionId}`);
    const text = readFileSync(c.file, "utf8");
    const starts = lineStarts(text);
    for (const f of got.findings ?? []) {
      result.ranges++;
      if (rangeFits(text, c.format, f, starts)) result.rangesOk++;
      else problems.push(`range ${JSON.stringify(f.range)} of ${f.code} is outside ${f.path}`);
    }
    if (problems.length) result.failures.push(`${name}: ${problems.join("; ")}`);
    else result.exact++;
  }
  return result;
}

const results = folders.map(checkFolder);
const pass = results.every((r) => r.failures.length === 0);
if (asJson) console.log(JSON.stringify({ pass, folders: results }, null, 2));
else {
  for (const r of results) {
    for (const f of verbose ? r.failures : r.failures.slice(0, 20)) console.log(`  ${f}`);
    if (!verbose && r.failures.length > 20) console.log(`  ... ${r.failures.length - 20} more (--verbose lists all)`);
    console.log(`${r.failures.length ? "FAIL" : "ok  "} ${r.folder}: ${r.exact}/${r.labelled} cases exact, ${r.versionIdsOk}/${r.versionIds} version ids, ` +
      `${r.rangesOk}/${r.ranges} ranges inside their node, ${r.syntaxOk}/${r.syntax} syntax cases`);
  }
  console.log(`conformance: ${pass ? "pass" : "FAIL"} (${results.filter((r) => r.failures.length === 0).length}/${results.length} folders)`);
}
process.exit(pass ? 0 : 1);

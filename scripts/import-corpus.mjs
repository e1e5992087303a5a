#!/usr/bin/env node
// Copies labelled LWIR cases (NAME.lwir.json|yaml|yml + NAME.expected.json, subfolders included) from a
// folder into test/corpus/conformance (or --into FOLDER), after checking that every document has a label
// and every label has the expected shape. Lists new and changed cases; --dry-run copies nothing.
//
//   node scripts/import-corpus.mjs SOURCE [--into test/corpus/conformance] [--dry-run]
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const argv = process.argv.slice(2);
let into = resolve("test/corpus/conformance");
let dryRun = false;
let source;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--into") into = resolve(argv[++i] ?? "");
  else if (argv[i] === "--dry-run") dryRun = true;
  else if (!argv[i].startsWith("--") && source === undefined) source = resolve(argv[i]);
  else fail(`unexpected argument ${argv[i]}`);
}
if (!source) fail("usage: node scripts/import-corpus.mjs SOURCE [--into FOLDER] [--dry-run]");
if (!existsSync(source) || !statSync(source).isDirectory()) fail(`${source} is not a folder`);

function fail(message) {
  console.error(`import-corpus: ${message}`);
  process.exit(2);
}

/** Why a label is not usable, or undefined. */
function labelProblem(label) {
  if (label === null || typeof label !== "object") return "not an object";
  if (!Array.isArray(label.findings) || !label.findings.every((f) => f && typeof f.code === "string" && typeof f.path === "string")) return "findings must be {code, path} pairs";
  if (typeof label.valid !== "boolean") return "valid must be a boolean";
  if (label.valid !== (label.findings.length === 0) && !label.parseError) return "valid must be true exactly when there are no findings";
  if (!(label.workflowVersionId === null || /^wfver_[0-9a-f]{16}$/.test(label.workflowVersionId))) return "workflowVersionId must be null or wfver_ and 16 hex digits";
  if (label.parseError === true && (label.findings.length > 0 || label.valid)) return "a syntax case has no findings and is not valid";
  return undefined;
}

const cases = [];
const problems = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) { walk(file); continue; }
    const m = /^(.*)\.lwir\.(json|yaml|yml)$/.exec(name);
    if (!m) continue;
    const labelFile = join(dir, `${m[1]}.expected.json`);
    if (!existsSync(labelFile)) { problems.push(`${relative(source, file)}: no label`); continue; }
    let label;
    try { label = JSON.parse(readFileSync(labelFile, "utf8")); } catch (e) { problems.push(`${relative(source, labelFile)}: ${e.message}`); continue; }
    const problem = labelProblem(label);
    if (problem) { problems.push(`${relative(source, labelFile)}: ${problem}`); continue; }
    cases.push({ doc: file, label: labelFile });
  }
})(source);
if (problems.length) fail(`nothing copied:\n  ${problems.join("\n  ")}`);
if (cases.length === 0) fail(`no labelled cases in ${source}`);

let added = 0, changed = 0, same = 0;
for (const c of cases) {
  for (const file of [c.doc, c.label]) {
    const target = join(into, relative(source, file));
    const before = existsSync(target) ? readFileSync(target) : undefined;
    const now = readFileSync(file);
    if (before?.equals(now)) { if (file === c.doc) same++; continue; }
    if (file === c.doc) { if (before) changed++; else added++; }
    console.log(`${before ? "changed" : "new    "} ${relative(process.cwd(), target)}`);
    if (!dryRun) { mkdirSync(dirname(target), { recursive: true }); copyFileSync(file, target); }
  }
}
console.log(`${dryRun ? "would copy" : "copied"}: ${added} new, ${changed} changed, ${same} unchanged cases (${cases.length} in ${relative(process.cwd(), source) || "."})`);

// The one-call repair rate of `lwir mcp`'s `fix` tool (docs/agents.md): how many invalid documents become
// valid after ONE call of `fix`, through the real server (the built dist/cli.js, `lwir mcp`, driven over stdio
// by the MCP SDK's client), on
//   1. every invalid document of the corpora (test/corpus/conformance, its syntax cases, test/corpus/realworld);
//   2. planner-typical drafts made from every valid document of the corpora, one of each kind where it applies:
//      a needs entry dropped, a step id misspelt in a reference (or in a needs entry or a decision target),
//      `.output` read from a step that runs more than once, a `{{ }}` left unquoted in YAML, a model missing
//      from permissions.models. A draft counts only when it is invalid (or, for the unquoted template, warned on).
// Prints both rates, the rate of each kind of draft, the codes that remain (those need a model's judgement),
// and the size of typical answers.
//   npm run repair-rate                       (builds first)
//   node bench/repair-rate.mjs [--json FILE]  (uses dist/cli.js as built)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const ROOT = resolve(import.meta.dirname, "..");
const CORPUS = join(ROOT, "test", "corpus");
const FOLDERS = [join(CORPUS, "conformance"), join(CORPUS, "conformance", "syntax"), join(CORPUS, "realworld")];
const jsonOut = process.argv.includes("--json") ? process.argv[process.argv.indexOf("--json") + 1] : undefined;

/** Every labelled case: its text, format and whether the runtime accepts it. */
function cases() {
  const out = [];
  for (const dir of FOLDERS) {
    for (const name of readdirSync(dir).sort()) {
      const m = /^(.*)\.lwir\.(json|ya?ml)$/.exec(name);
      if (!m) continue;
      const label = JSON.parse(readFileSync(join(dir, `${m[1]}.expected.json`), "utf8"));
      out.push({ name: `${dir.slice(CORPUS.length + 1)}/${name}`, text: readFileSync(join(dir, name), "utf8"), format: m[2] === "json" ? "json" : "yaml", valid: label.valid === true });
    }
  }
  return out;
}

// ---- drafts ------------------------------------------------------------------------------------------

/** A deterministic pick among candidates (the same drafts on every run). */
function pick(list, key) {
  let h = 2166136261;
  for (const c of key) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return list[h % list.length];
}

/** A typo a planner makes: two neighbouring letters swapped (or one dropped in a short id). */
function misspell(id) {
  const letters = [...id].map((c, i) => i).filter((i) => i > 0 && i < id.length - 1 && /[a-z]/i.test(id[i]) && /[a-z]/i.test(id[i + 1]) && id[i] !== id[i + 1]);
  if (letters.length > 0) {
    const i = pick(letters, id);
    return id.slice(0, i) + id[i + 1] + id[i] + id.slice(i + 2);
  }
  return id.length > 3 ? id.slice(0, -1) : `${id}x`;
}

/** Every step at every depth (parallel bodies included), with the list it is in. */
function allSteps(steps, out = []) {
  if (!Array.isArray(steps)) return out;
  for (const step of steps) {
    if (step === null || typeof step !== "object") continue;
    out.push(step);
    allSteps(step.steps, out);
  }
  return out;
}

/** Strings of a value, with a setter, at every depth. */
function strings(value, out = []) {
  if (Array.isArray(value)) value.forEach((v, i) => (typeof v === "string" ? out.push({ get: () => value[i], set: (s) => (value[i] = s) }) : strings(v, out)));
  else if (value && typeof value === "object") {
    for (const k of Object.keys(value)) {
      const v = value[k];
      if (typeof v === "string") out.push({ get: () => value[k], set: (s) => (value[k] = s) });
      else strings(v, out);
    }
  }
  return out;
}

/** The drafts of one valid document: [{kind, value}] (a value to render) or [{kind, text}] (text already). */
function draftsOf(doc, key) {
  const drafts = [];
  const clone = () => structuredClone(doc);
  const stepsOf = (d) => allSteps(d.steps);

  // A needs entry dropped.
  {
    const d = clone();
    const withNeeds = stepsOf(d).filter((s) => Array.isArray(s.needs) && s.needs.length > 0);
    if (withNeeds.length > 0) {
      const step = pick(withNeeds, `${key}needs`);
      step.needs.splice(step.needs.length - 1, 1);
      if (step.needs.length === 0) delete step.needs;
      drafts.push({ kind: "needs entry dropped", value: d });
    }
  }
  // A step id misspelt in a reference, else in a needs entry or a decision target.
  {
    const d = clone();
    const refs = strings(stepsOf(d).map((s) => s.with ?? {})).filter((s) => /steps\.[A-Za-z0-9_-]+/.test(s.get()));
    if (refs.length > 0) {
      const ref = pick(refs, `${key}ref`);
      ref.set(ref.get().replace(/steps\.([A-Za-z0-9_-]+)/, (_, id) => `steps.${misspell(id)}`));
      drafts.push({ kind: "step id misspelt in a reference", value: d });
    }
    const d2 = clone();
    const targets = [];
    for (const s of stepsOf(d2)) {
      if (Array.isArray(s.needs)) s.needs.forEach((n, i) => typeof n === "string" && targets.push({ get: () => s.needs[i], set: (v) => (s.needs[i] = v) }));
      if (s.uses === "decision" && s.with && typeof s.with === "object") {
        for (const c of Array.isArray(s.with.cases) ? s.with.cases : []) if (c && typeof c.to === "string" && c.to !== "end") targets.push({ get: () => c.to, set: (v) => (c.to = v) });
        if (typeof s.with.default === "string" && s.with.default !== "end") targets.push({ get: () => s.with.default, set: (v) => (s.with.default = v) });
      }
    }
    if (targets.length > 0) {
      const t = pick(targets, `${key}target`);
      t.set(misspell(t.get()));
      drafts.push({ kind: "step id misspelt in needs or a target", value: d2 });
    }
  }
  // `.output` on a step that runs more than once.
  {
    const d = clone();
    const refs = strings(stepsOf(d).map((s) => s.with ?? {})).filter((s) => /steps\.[A-Za-z0-9_-]+\.lastOutput\b/.test(s.get()));
    if (refs.length > 0) {
      const ref = pick(refs, `${key}last`);
      ref.set(ref.get().replace(/(steps\.[A-Za-z0-9_-]+\.)lastOutput\b/, "$1output"));
      drafts.push({ kind: ".output on a multi-visit step", value: d });
    }
  }
  // A model missing from permissions.
  {
    const d = clone();
    const models = Array.isArray(d.permissions?.models) ? d.permissions.models : [];
    const used = models.filter((m) => stepsOf(d).some((s) => s.with?.model === m));
    if (used.length > 0) {
      const m = pick(used, `${key}model`);
      d.permissions.models = models.filter((x) => x !== m);
      drafts.push({ kind: "model missing from permissions", value: d });
    }
  }
  // A `{{ }}` left unquoted in YAML: the whole value a template, its quotes dropped.
  {
    const text = stringifyYaml(doc, { lineWidth: 0 });
    const lines = text.split("\n");
    const quoted = lines.map((l, i) => [l, i]).filter(([l]) => /^\s*(- )?[\w.-]+: (["'])\{\{[^"'\n]*\}\}\2$/.test(l));
    if (quoted.length > 0) {
      const [line, i] = pick(quoted, `${key}quote`);
      lines[i] = line.replace(/: (["'])(\{\{[^"'\n]*\}\})\1$/, ": $2");
      drafts.push({ kind: "unquoted {{ }} in YAML", text: lines.join("\n"), format: "yaml" });
    }
  }
  return drafts;
}

// ---- the run -----------------------------------------------------------------------------------------

const client = new Client({ name: "lwir-repair-rate", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(ROOT, "dist", "cli.js"), "mcp"], cwd: ROOT, stderr: "inherit" }));

async function call(name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${result.content.map((c) => c.text).join("")}`);
  return result.structuredContent;
}

/** Tallies of one set: attempted, repaired, and the codes that remain (counted once per document). */
function tally() {
  return { documents: 0, repaired: 0, remaining: new Map() };
}
function count(t, answer) {
  t.documents++;
  // Repaired: the runtime accepts it, and no template is left that YAML reads as a mapping.
  if (answer.valid && !answer.remaining.some((f) => f.code === "lwir.yaml_unquoted_template")) t.repaired++;
  for (const code of new Set(answer.remaining.map((f) => f.code))) t.remaining.set(code, (t.remaining.get(code) ?? 0) + 1);
}

const corpus = tally();
const drafts = tally();
const byKind = new Map();
for (const c of cases()) {
  if (!c.valid) {
    count(corpus, await call("fix", { text: c.text, format: c.format }));
    continue;
  }
  let value;
  try {
    value = c.format === "json" ? JSON.parse(c.text) : parseYaml(c.text, { logLevel: "error" });
  } catch {
    continue;
  }
  for (const draft of draftsOf(value, c.name)) {
    // Each draft in the format of its source (the unquoted template only in YAML).
    const format = draft.format ?? c.format;
    const text = draft.text ?? (format === "json" ? JSON.stringify(draft.value, null, 2) + "\n" : stringifyYaml(draft.value, { lineWidth: 0 }));
    const before = await call("validate", { text, format });
    // A draft counts when it is broken: invalid, or (YAML) a template the runtime reads as a mapping.
    if (before.valid && !before.findings.some((f) => f.code === "lwir.yaml_unquoted_template")) continue;
    const after = await call("fix", { text, format });
    count(drafts, after);
    if (!byKind.has(draft.kind)) byKind.set(draft.kind, tally());
    count(byKind.get(draft.kind), after);
    if (process.env.LWIR_REPAIR_DEBUG && !(after.valid && !after.remaining.some((f) => f.code === "lwir.yaml_unquoted_template")) && after.remaining.some((f) => new RegExp(process.env.LWIR_REPAIR_DEBUG).test(f.code))) {
      console.error(`--- ${c.name} (${draft.kind})\n${after.remaining.map((f) => `${f.line}:${f.column} ${f.code} ${f.message}`).join("\n")}\n${after.text.split("\n").slice(Math.max(0, after.remaining[0].line - 4), after.remaining[0].line + 2).join("\n")}`);
    }
  }
}
// The size of typical answers (the text content; the structured content is the same JSON), on examples/.
const example = (name) => join(ROOT, "examples", name);
const triage = readFileSync(example("support-triage.lwir.yaml"), "utf8").split("\n");
const at = triage.findIndex((l) => l.includes("{{ steps.fetch-queue"));
const SIZED = [
  ["validate, a valid file", "validate", { path: example("support-triage.lwir.yaml") }],
  ["validate, 4 findings", "validate", { path: example("broken-review.lwir.yaml") }],
  ["fix, 2 fixes (the whole fixed text included)", "fix", { path: example("broken-review.lwir.yaml") }],
  ["explain", "explain", { code: "step.undeclared_dependency" }],
  ["graph (Mermaid), 7 steps", "graph", { path: example("support-triage.lwir.yaml") }],
  ["complete after {{ steps.", "complete", { path: example("support-triage.lwir.yaml"), line: at + 1, column: triage[at].indexOf("steps.") + 7 }],
  ["schema (one page)", "schema", {}],
  ["dry_run, generated samples, 3 steps", "dry_run", { path: example("release-notes.lwir.json") }],
  ["dry_run, a scenario, 12 steps (7 prompts)", "dry_run", { path: example("support-triage.lwir.yaml"), scenario: "two tickets, one redrafted" }],
  ["dry_run explore, 4 paths", "dry_run", { path: example("support-triage.lwir.yaml"), explore: true }],
  // A path relative to the server's working folder (ROOT): the answer names the files as given.
  ["test of examples/, 2 files, 5 scenarios", "test", { path: "examples" }],
  ["test, one scenario", "test", { path: "examples/release-notes.lwir.test.yaml", scenario: "two pull requests" }],
];
const sizes = [];
for (const [label, name, args] of SIZED) {
  const result = await client.callTool({ name, arguments: args });
  sizes.push([label, Buffer.byteLength(result.content.map((c) => c.text).join(""))]);
}
await client.close();

const pct = (t) => (t.documents === 0 ? "-" : `${((100 * t.repaired) / t.documents).toFixed(1)}%`);
const codes = (t) => [...t.remaining].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([code, n]) => `${code} ${n}`).join(", ");
const lines = [
  `invalid corpus documents: ${corpus.repaired} of ${corpus.documents} valid after one fix call (${pct(corpus)})`,
  `  codes that remain: ${codes(corpus)}`,
  `planner-typical drafts:   ${drafts.repaired} of ${drafts.documents} valid after one fix call (${pct(drafts)})`,
  ...[...byKind].map(([kind, t]) => `  ${kind}: ${t.repaired} of ${t.documents} (${pct(t)})${t.remaining.size > 0 ? `; remain: ${codes(t)}` : ""}`),
];
lines.push("answer sizes (bytes of the text content):", ...sizes.map(([label, bytes]) => `  ${label}: ${bytes}`));
console.log(lines.join("\n"));
if (jsonOut) {
  const plain = (t) => ({ documents: t.documents, repaired: t.repaired, remaining: Object.fromEntries(t.remaining) });
  writeFileSync(jsonOut, JSON.stringify({ corpus: plain(corpus), drafts: plain(drafts), byKind: Object.fromEntries([...byKind].map(([k, t]) => [k, plain(t)])), answerBytes: Object.fromEntries(sizes) }, null, 2) + "\n");
}

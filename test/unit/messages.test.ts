// Every message the server and the CLI can produce, held to the style guide (docs/messages.md): the
// diagnostics of every rule page example and every corpus document (the editor's, with related
// information, and the CLI's), the hover on each of them, the code lenses, the status bar's texts and
// the CLI's summary lines. Each is checked mechanically; a new template that breaks the guide fails here.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Diagnostic, Hover, MarkupContent } from "vscode-languageserver-types";
import { OWN_RULES, RULES } from "../../server/src/lwir/codes";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import {
  FILE_TOO_LARGE, INTERNAL_ERROR, emptyDocumentDiagnostic, internalErrorDiagnostic, toDiagnostics, tooLargeDiagnostic, unreadableDiagnostic,
} from "../../server/src/service/diagnostics";
import { provideHover } from "../../server/src/service/hover";
import { provideCodeLenses, tooLargeInfo, workflowVersionInfo } from "../../server/src/service/codeLens";
import { checkBytes, isFailure } from "../../server/src/cli/check";
import { formatText } from "../../server/src/cli/format-text";
import type { FileReport } from "../../server/src/cli/report";
import { whyNot } from "../../client/src/workflowVersionText";
import { indicators, type Indicators, type ShownCounts } from "../../client/src/indicators";
import { CONFORMANCE, REALWORLD, SYNTAX, corpusCases } from "../corpus";
import { readRulePages } from "../rule-docs";
import { evaluateTemplate } from "../../server/src/run/evaluate";
import type { EvalContext } from "../../server/src/run/context";
import { readdirSync } from "node:fs";
import { parseDocument } from "../../server/src/document/document";
import { checkScenariosFile } from "../../server/src/scenarios/check";

interface Sample {
  /** Where it came from, for failures. */
  where: string;
  kind: "message" | "related" | "hover" | "label" | "tooltip";
  code?: string;
  text: string;
  /** The document's step ids (for "the user's names in quotes"), and for a hover the message above it. */
  ids?: string[];
  message?: string;
}

const URI = "file:///doc.lwir";

/** Diagnostics shown, as the status bar and the lens count them: none, some, and some held while typing. */
const COUNTS: ShownCounts[] = [{ errors: 0, warnings: 0, held: 0 }, { errors: 1, warnings: 2, held: 0 }, { errors: 0, warnings: 1, held: 0 }, { errors: 2, warnings: 0, held: 1 }];

/** The status bar's and the lens's words for one record (indicators.ts). */
function pushIndicators(samples: Sample[], where: string, shown: Indicators): void {
  samples.push({ where, kind: "label", text: shown.status }, { where, kind: "tooltip", text: shown.statusTooltip }, { where, kind: "tooltip", text: shown.lensTooltip });
  if (shown.lens !== undefined) samples.push({ where, kind: "label", text: shown.lens });
}

/** Every step id of a document, in bodies too. */
function stepIds(value: unknown): string[] {
  const out: string[] = [];
  const walk = (steps: unknown) => {
    if (!Array.isArray(steps)) return;
    for (const s of steps) {
      if (s === null || typeof s !== "object" || Array.isArray(s)) continue;
      const step = s as Record<string, unknown>;
      if (typeof step.id === "string") out.push(step.id);
      walk(step.steps);
    }
  };
  if (value !== null && typeof value === "object") walk((value as Record<string, unknown>).steps);
  return out;
}

function textOf(message: string | MarkupContent): string {
  return typeof message === "string" ? message : message.value;
}

function hoverText(h: Hover | null): string | undefined {
  return h ? (h.contents as MarkupContent).value : undefined;
}

function documents(): Array<{ where: string; text: string; format: "json" | "yaml" }> {
  const out: Array<{ where: string; text: string; format: "json" | "yaml" }> = [];
  for (const page of readRulePages()) for (const e of page.examples) out.push({ where: `${page.file}:${e.line}`, text: e.text, format: e.format });
  for (const dir of [CONFORMANCE, SYNTAX, REALWORLD]) {
    for (const c of corpusCases(dir)) out.push({ where: c.file, text: readFileSync(c.file, "utf8"), format: c.format });
  }
  return out;
}

function collect(): { samples: Sample[]; codes: Set<string>; reports: FileReport[] } {
  const samples: Sample[] = [];
  const codes = new Set<string>();
  const reports: FileReport[] = [];
  for (const d of documents()) {
    const analysis: Analysis = analyzeText(d.text, d.format);
    const ids = stepIds(analysis.document.value);
    const diagnostics: Diagnostic[] = toDiagnostics(analysis, { uri: URI });
    for (const diag of diagnostics) {
      const code = String(diag.code);
      codes.add(code);
      const message = textOf(diag.message);
      samples.push({ where: d.where, kind: "message", code, text: message, ids });
      for (const r of diag.relatedInformation ?? []) samples.push({ where: d.where, kind: "related", code, text: r.message, ids });
      const hover = hoverText(provideHover(analysis, diag.range.start));
      if (hover !== undefined) samples.push({ where: d.where, kind: "hover", code, text: hover, ids, message });
    }
    for (const lens of provideCodeLenses(analysis, URI)) {
      samples.push({ where: d.where, kind: "label", text: lens.command!.title });
      if (lens.command!.tooltip) samples.push({ where: d.where, kind: "tooltip", text: lens.command!.tooltip });
    }
    const info = workflowVersionInfo(analysis, URI);
    for (const listed of [false, true]) {
      for (const counts of COUNTS) pushIndicators(samples, d.where, indicators(info, counts, listed));
    }
    samples.push({ where: d.where, kind: "message", text: whyNot(info) });
    // the CLI: the runtime's messages (no "Did you mean"), parse errors and our notices
    const report = checkBytes(`doc.lwir.${d.format}`, new TextEncoder().encode(d.text));
    assert.ok(!isFailure(report), d.where);
    reports.push(report);
    for (const f of [...report.parseErrors, ...report.findings, ...(report.notices ?? [])]) {
      samples.push({ where: `${d.where} (CLI)`, kind: "message", code: "code" in f ? String(f.code) : "parse", text: f.message, ids });
    }
  }
  // scenarios files (scenarios/check.ts): each page's example beside its workflow, and a few more shapes
  for (const page of readRulePages().filter((x) => x.code.startsWith("lwir.scenario_"))) {
    const fence = (kind: string) => new RegExp("^```yaml " + kind + "\\n([\\s\\S]*?)^```$", "m").exec(page.text)?.[1] ?? "";
    const workflowValue = parseDocument(fence("lwir-scenario-workflow"), "yaml").value;
    const ids = stepIds(workflowValue);
    const extra = [
      fence("lwir-scenario-example"),
      "- name: a\n  outputs: { route: x, nowhere: y }\n  expect: { chosen: { classify: bug, route: [answer, nope] }, steps: 3, error: 4 }\n- name: a\n  colour: red\n",
      "workflow: gone.lwir.yaml\nscenarios:\n  - name: a\n",
      "42\n",
    ];
    for (const text of extra) {
      const workflow = page.code === "lwir.scenario_no_workflow" ? undefined : { name: "tickets.lwir.yaml", value: workflowValue };
      const declared = /^workflow: (.*)$/m.exec(text)?.[1];
      for (const diag of checkScenariosFile(parseDocument(text, "yaml"), workflow, declared)) {
        codes.add(String(diag.code));
        samples.push({ where: page.file, kind: "message", code: String(diag.code), text: textOf(diag.message), ids });
      }
    }
  }
  // the notices built without a document
  for (const diag of [emptyDocumentDiagnostic(), tooLargeDiagnostic(9_000_000, 8_388_608), internalErrorDiagnostic(new Error("x is not a function")), unreadableDiagnostic("not UTF-8")]) {
    codes.add(String(diag.code));
    samples.push({ where: "built", kind: "message", code: String(diag.code), text: textOf(diag.message) });
  }
  // bytes the runtime reads (no rule page can hold them): one and two NULs in the text, and bytes that are not
  // UTF-8, through the CLI, which reads bytes
  const valid = readFileSync(join(REALWORLD, "template-cli-setup-starter-echo.lwir.yaml"), "utf8");
  for (const bad of ["# a\u0000b\n", "# a\u0000\u0000b\n"]) {
    for (const diag of toDiagnostics(analyzeText(bad + valid, "yaml")).filter((x) => x.code === "lwir.nul_byte")) {
      codes.add(String(diag.code));
      samples.push({ where: "NUL", kind: "message", code: String(diag.code), text: textOf(diag.message) });
    }
  }
  for (const bad of [[0xe9], [0xe9, 0xe8]]) {
    const report = checkBytes("latin1.lwir.yaml", new Uint8Array([0x23, 0x20, ...bad, 0x0a, ...new TextEncoder().encode(valid)]));
    assert.ok(!isFailure(report), "latin1");
    for (const f of report.notices ?? []) {
      codes.add(String(f.code));
      samples.push({ where: "not UTF-8 (CLI)", kind: "message", code: String(f.code), text: f.message });
    }
  }
  // the dry run's evaluation errors: every error case of the labelled evaluation cases (test/corpus/eval)
  const evalDir = join("test", "corpus", "eval");
  const evalContext = JSON.parse(readFileSync(join(evalDir, "context.json"), "utf8")) as EvalContext;
  for (const file of readdirSync(evalDir).filter((f) => f.endsWith(".jsonl"))) {
    for (const line of readFileSync(join(evalDir, file), "utf8").split("\n").filter((l) => l.trim() !== "")) {
      const c = JSON.parse(line) as { id: string; template: string; context?: Partial<EvalContext> };
      const r = evaluateTemplate(c.template, { ...evalContext, ...c.context });
      if (!r.ok) samples.push({ where: `eval ${file} ${c.id}`, kind: "message", code: "eval", text: r.error.message });
    }
  }
  const large = tooLargeInfo(URI);
  samples.push({ where: "too large", kind: "message", text: whyNot(large) }, { where: "not LWIR", kind: "message", text: whyNot(null) });
  for (const listed of [false, true]) pushIndicators(samples, "too large", indicators(large, COUNTS[0], listed));
  pushIndicators(samples, "empty", indicators({ uri: URI, valid: false, id: null, hash: null, problems: 0, empty: true }, COUNTS[0]));
  for (const problems of [1, 2]) {
    pushIndicators(samples, `${problems} syntax errors`, indicators({ uri: URI, valid: false, id: null, hash: null, problems, syntaxErrors: problems }, COUNTS[0], true));
    samples.push({ where: `${problems} problems`, kind: "message", text: whyNot({ uri: URI, valid: false, id: null, hash: null, problems }) });
  }
  // the CLI's summary line, for one file and for all of them, with and without problems
  const clean = reports.filter((r) => r.valid && (r.notices ?? []).length === 0);
  for (const set of [reports, reports.slice(0, 1), clean.slice(0, 1), clean.slice(0, 2)]) {
    for (const fixMode of [undefined, "dry-run", "write"] as const) {
      const lines = formatText(set, { color: false, fixMode }).trimEnd().split("\n");
      samples.push({ where: `CLI summary of ${set.length} files`, kind: "label", text: lines[lines.length - 1] });
    }
  }
  return { samples, codes, reports };
}

const { samples, codes } = collect();

// ---- the checks: each returns what is wrong, or undefined --------------------------------------------

/** Words that are ours, or a library's, not the user's. */
const JARGON = [
  /unsafe template/i, /malformed template/i, /\bcanonicalis/i, /\bmeta-schema\b/i, /\binstancePath\b/, /\bflow mapping\b/i,
  /must NOT\b/, /should NOT\b/, /\bnot missing\b/, /\bundefined\b/, /\[object Object\]/, /\bNaN\b/, /\bat offset\b/,
  /\bnot (?:number|boolean) /, /\bfinding\b/i, /\bthe catalog\b/i, /\bAjv\b/,
];

/** Ajv's and JSON Pointer's syntax for a place in a schema, and our finding-path syntax: never the user's names. */
const POINTERS = [/\bdata\//, /(?:^|\s)data\s+must\b/, /#\//, /\bat #(?:\s|$)/, /\$\.[A-Za-z]/, /\/properties\//];

const SENTENCE_END = /[.?!]$/;

function sentences(text: string): string[] {
  return text.split(/(?<=[.?!])(?<!\be\.g\.)(?<!\bi\.e\.)\s+(?=[A-Z"{`*])/).map((s) => s.trim()).filter(Boolean);
}

function words(text: string): string[] {
  return text.toLowerCase().replace(/[`*_[\]()"'{}:;,.?!—–-]/g, " ").split(/\s+/).filter((w) => w.length > 3 && !STOP.has(w));
}
const STOP = new Set(["this", "that", "with", "from", "have", "must", "when", "only", "their", "there", "which", "step", "steps", "the", "does", "into", "than", "once", "more", "each", "every", "they", "them", "other", "here", "instead"]);

/** Two texts that say the same thing: most of their words are the same (Jaccard index). */
function sameThing(a: string, b: string): boolean {
  const wa = new Set(words(a));
  const wb = new Set(words(b));
  if (Math.min(wa.size, wb.size) < 4) return false;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared++;
  return shared / (wa.size + wb.size - shared) >= 0.6;
}

function normal(sentence: string): string {
  return sentence.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
}

const RULE_SUMMARY = new Map(RULES.map(([code, summary]) => [code, summary]));
const SINGULAR = "problem|step|file|error|warning|item|argument|time|level|byte|character|hint|fix|value|copy|match|path|folder";
const ONE_PLURAL = new RegExp(`(?<![\\d.])\\b1 (?:${SINGULAR.split("|").map((w) => (w.endsWith("y") ? `${w.slice(0, -1)}ies` : w.endsWith("x") || w.endsWith("ch") ? `${w}es` : `${w}s`)).join("|")})\\b`);
const MANY_SINGULAR = new RegExp(`(?<![\\d.])\\b(?:0|[2-9]|\\d{2,}) (?:${SINGULAR})\\b(?![-'])`);

function grammar(text: string): string | undefined {
  if (ONE_PLURAL.test(text)) return `plural after 1: ${ONE_PLURAL.exec(text)![0]}`;
  if (MANY_SINGULAR.test(text)) return `singular after a number other than 1: ${MANY_SINGULAR.exec(text)![0]}`;
  const article = /\ba (?!one\b|u[ns]|use|eu|uni)[aeiou]\w*/i.exec(text.replace(/`[^`]*`|"[^"]*"|\{\{.*?\}\}/g, "\"\""));
  if (article && !/^A /.test(article[0])) return `"a" before a vowel: ${article[0]}`;
  const doubled = /\b(\w{2,}) \1\b/i.exec(text.replace(/\{\{.*?\}\}|"[^"]*"/g, "\"\""));
  if (doubled) return `a doubled word: ${doubled[0]}`;
  return undefined;
}

/** A step id of the document written bare (not in quotes, not in a `steps.…` path or a `{{ }}`). */
function bareStepId(text: string, ids: readonly string[]): string | undefined {
  const stripped = text
    .replace(/\{\{.*?\}\}/gs, " ")
    .replace(/"(?:[^"\\]|\\.)*"/g, " ")
    .replace(/`[^`]*`/g, " ")
    .replace(/\bsteps\.[\w$-]+(?:\.[\w$-]+)*/g, " ")
    .replace(/\b[\w$-]+(?:\.[\w$-]+)+/g, " "); // dotted names: with.model, sandbox.network, input.topic…
  for (const id of ids) {
    if (id.length < 2 || COMMON_WORDS.has(id)) continue;
    const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (new RegExp(`(?<![\\w.$-])${escaped}(?![\\w$-])`).test(stripped)) return id;
  }
  return undefined;
}
/** Ids that are also plain words of our messages ("The step needs an output"). */
const COMMON_WORDS = new Set(["one", "first", "last", "output", "input", "item", "items", "end", "with", "needs", "text", "schema", "step", "steps", "decision", "files", "values", "mode", "model", "tool", "workflow", "a", "an", "the"]);

function plain(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[*_`]/g, "").replace(/^---$/gm, "");
}

function check(s: Sample): string[] {
  const problems: string[] = [];
  const text = s.kind === "hover" ? plain(s.text) : s.text;
  for (const re of JARGON) if (re.test(text)) problems.push(`jargon ${re}`);
  for (const re of POINTERS) if (re.test(text)) problems.push(`a pointer instead of the user's path ${re}`);
  const g = grammar(text);
  if (g) problems.push(g);
  if (s.kind === "message" || s.kind === "related") {
    if (!SENTENCE_END.test(text)) problems.push("does not end with a full stop");
    if (/[^.?!]\s+Did you mean\b/.test(text)) problems.push('no full stop before "Did you mean"');
    // (a key's name may start a sentence: "sha256 must be …", "repair.mode "escalate" is not …")
    if (/^[a-z]/.test(text) && !/^[a-z][\w.]*\s+(?:"[^"]*"\s+)?(?:is|must|has|are|does|names|cannot|lists|requires)\b/.test(text)) problems.push("starts with a lower-case word that is not a key's name");
    const all = sentences(text);
    for (let i = 0; i < all.length; i++) for (let j = i + 1; j < all.length; j++) if (all[i] === all[j] || sameThing(all[i], all[j])) problems.push(`says the same thing twice: "${all[i]}" / "${all[j]}"`);
    if (s.ids) {
      const bare = bareStepId(text, s.ids);
      if (bare !== undefined) problems.push(`the step id ${bare} is not in quotes`);
    }
  }
  if (s.kind === "hover" && s.message !== undefined) {
    // The editor shows the message right above the hover: the hover says how to fix it and what the word
    // is, and does not say the problem again, neither in the message's words nor in the rule's summary.
    const said = new Set(sentences(s.message).map(normal));
    for (const h of sentences(text.replace(/\n+/g, " "))) if (said.has(normal(h))) problems.push(`repeats the message: "${h}"`);
    const summary = s.code !== undefined ? RULE_SUMMARY.get(s.code) : undefined;
    if (summary !== undefined && text.includes(summary)) problems.push(`repeats the rule's summary under its message: "${summary}"`);
    const parts = text.split(/\n\s*\n/).map((p) => p.replace(/^How to fix:\s*/, "").trim())
      .filter((p) => words(p).length >= 4 && !p.startsWith("Examples and details of"));
    for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
      if (sameThing(parts[i], parts[j])) problems.push(`says the same thing twice: "${parts[i]}" / "${parts[j]}"`);
    }
  }
  if (s.kind === "tooltip") {
    for (const line of text.split("\n")) {
      // the id and hash lines of a valid document are data, not sentences
      if (/^(?:LWIR: valid|WorkflowVersion wfver_\w+|sha256:[0-9a-f]+)?$/.test(line)) continue;
      if (!SENTENCE_END.test(line)) problems.push(`tooltip line does not end with a full stop: "${line}"`);
    }
  }
  if (s.kind === "label" && SENTENCE_END.test(text) && !text.endsWith("…")) problems.push("a label ends with a full stop");
  return problems;
}

describe("messages (docs/messages.md)", () => {
  test("the samples cover every code: each runtime rule and each of ours produces a message", () => {
    const expected = [...RULES.map(([code]) => code), ...OWN_RULES.map((r) => r.code)];
    const missing = expected.filter((c) => !codes.has(c));
    assert.deepEqual(missing, [], "codes no rule page example nor corpus document produces");
    assert.ok(codes.has(FILE_TOO_LARGE) && codes.has(INTERNAL_ERROR));
    assert.ok(samples.filter((s) => s.kind === "hover").length > 100);
  });

  for (const kind of ["message", "related", "hover", "label", "tooltip"] as const) {
    test(`every ${kind} follows the guide`, () => {
      const seen = new Set<string>();
      const failures: string[] = [];
      for (const s of samples) {
        if (s.kind !== kind) continue;
        const key = `${s.code}\u0000${s.text}\u0000${s.message ?? ""}`;
        if (seen.has(key)) continue;
        seen.add(key);
        for (const p of check(s)) failures.push(`${s.where}${s.code ? ` ${s.code}` : ""}: ${p}\n    ${s.text.replace(/\n/g, "⏎")}`);
      }
      assert.ok(seen.size > 0, `no ${kind} collected`);
      assert.deepEqual(failures, []);
    });
  }
});

describe("the checks catch the old wording (each fails on what it guards against)", () => {
  const bad = (text: string, kind: Sample["kind"] = "message", extra: Partial<Sample> = {}) => check({ where: "t", kind, text, ...extra });
  test("Ajv's pointers and our jargon", () => {
    assert.notDeepEqual(bad("not a valid JSON Schema (draft-07): data/properties/s must be object."), []);
    assert.notDeepEqual(bad('unsupported JSON Schema keyword "x" at #/properties/id; LWIR schemas may only use type.'), []);
    assert.notDeepEqual(bad("unsafe template: {{ a; }}: it contains \";\"."), []);
  });
  test("full stops, also before Did you mean", () => {
    assert.notDeepEqual(bad("Map keys must be unique"), []);
    assert.notDeepEqual(bad('Unknown root "inptu" (expected input) Did you mean "input"?'), []);
    assert.deepEqual(bad('The root "inptu" is not known. Did you mean "input"?'), []);
  });
  test("grammar and plurals", () => {
    assert.notDeepEqual(bad("This LWIR document has 1 problems."), []);
    assert.notDeepEqual(bad("This LWIR document has 2 problem."), []);
    assert.notDeepEqual(bad("Every JavaScript object has a isPrototypeOf."), []);
    assert.notDeepEqual(bad("1 problems", "label"), []);
  });
  test("the cause first, names in quotes, nothing said twice", () => {
    assert.notDeepEqual(bad("The cycle draft → polish has no decision step to end it.", "message", { ids: ["draft", "polish"] }), []);
    assert.deepEqual(bad('Steps "draft" and "polish" form a loop with no decision step on it to leave it.', "message", { ids: ["draft", "polish"] }), []);
    assert.notDeepEqual(bad("The target is not a step of this list. The target is not a step of this list."), []);
    // the target-typo hover of issue 22: the message, the rule's summary, and the unknown id once more
    const hover = "**`decision.target_not_in_scope`** — A decision target is neither \"end\" nor a step of the same list.\n\n*How to fix:* Route to a step of the decision's own list, or to `end`.\n\n---\n\n**`file-bgu`**: no step with this id is in scope here. It must name a step of this decision's list (or `end`).";
    assert.notDeepEqual(bad(hover, "hover", { code: "decision.target_not_in_scope", message: 'The decision target "file-bgu" is not a step of this list (use "end" to finish).' }), []);
    assert.notDeepEqual(bad("`toString` is not an expression function.", "hover", { message: "toString is not an expression function." }), []);
  });
  test("tooltips are sentences; labels are not", () => {
    assert.notDeepEqual(bad("1 problem: no WorkflowVersion until the document is valid", "tooltip"), []);
    assert.notDeepEqual(bad("LWIR: 1 problem.", "label"), []);
  });
});

describe("the messages issue 22 names", () => {
  const yaml = (schema: string) => `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata: {name: example}
input:
  schema:
    type: object
    properties:
${schema}
output:
  schema: {type: object}
permissions:
  models: [gpt-4o-mini]
steps:
  - id: draft
    uses: ai.generate
    with: {model: gpt-4o-mini, prompt: "Write about {{ input.s }}"}
    output: {mode: text}
`;

  test("a schema error names the user's path and sits on the node that is wrong; the CLI keeps the schema's range", () => {
    const text = yaml("      s:\n        type: string\n        format: email");
    const analysis = analyzeText(text, "yaml");
    const [d] = toDiagnostics(analysis).filter((x) => x.code === "schema.invalid");
    assert.match(textOf(d.message), /^LWIR schemas do not support the keyword "format" \(in input\.schema\.properties\.s\)\./);
    assert.equal(d.range.start.line, 7, "on `s:` (line 8), not on `schema:` two lines above");
    const [cli] = analysis.findings;
    assert.equal(cli.path, "$.input.schema");
    assert.equal(cli.range.start.line, 4);
    const ajv = toDiagnostics(analyzeText(yaml("      s:\n        type: string\n        minLength: -1"), "yaml")).find((x) => x.code === "schema.invalid")!;
    assert.equal(textOf(ajv.message), "input.schema.properties.s.minLength must be >= 0, so input.schema is not a valid JSON Schema (draft-07).");
    assert.equal(ajv.range.start.line, 9);
  });

  test("the cycle message leads with the loop, not with maxVisits", () => {
    const loop = readFileSync("test/corpus/conformance/cycle--self-need.lwir.yaml", "utf8");
    const [d] = toDiagnostics(analyzeText(loop, "yaml")).filter((x) => x.code === "lwir.invalid_cycle");
    assert.match(textOf(d.message), /^Step "a" forms a loop on its own, but "a" has no maxVisits of at least 2/);
  });

  test("the status bar and the commands: one problem, in good grammar", () => {
    const one = { uri: URI, valid: false, id: null, hash: null, problems: 1 };
    assert.equal(whyNot(one), "This LWIR document has 1 problem. It gets a WorkflowVersion once it has none.");
    assert.equal(indicators(one, { errors: 1, warnings: 0, held: 0 }).status, "$(error) LWIR: 1 problem");
  });

  test("sp500: the step's own input is not what {{ input.company }} reads", () => {
    const file = "test/corpus/realworld/demo-sp500-investor-report.lwir.yaml";
    const analysis = analyzeText(readFileSync(file, "utf8"), "yaml");
    const company = toDiagnostics(analysis).filter((d) => d.code === "lwir.unknown_property" && textOf(d.message).startsWith('"company"'));
    assert.equal(company.length, 1);
    assert.equal(textOf(company[0].message),
      '"company" is not a declared property of input: in an expression, input is the workflow\'s input, and its schema declares "archivePath", "limit", "riskProfile", "recommendationCount". ' +
      'The "company" of this step\'s own input is not read there: the runtime sends the step\'s input to the model after the prompt, under "Input:".');
  });
});

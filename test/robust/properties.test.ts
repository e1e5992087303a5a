// Service-level properties (fast-check), above the validator's own (test/unit/validate-properties.test.ts):
//
// - arbitrary text, in both formats (random characters, structure soup, lone surrogates, and corpus documents
//   cut short or mutated one character at a time), at arbitrary positions (inside, past the end, negative):
//   parsing, the path ⇄ range mapping and every editor feature (diagnostics, completion from the analysis
//   and from the text, code actions with current and stale diagnostics, fix-all, hover, definition,
//   references, rename, symbols, folding, selection ranges, semantic tokens, code lenses) return without
//   throwing, with positions inside the document; analysis is deterministic;
// - arbitrary LWIR-shaped values written as JSON (pretty, compact, tabs and CRLF) and YAML (block, flow,
//   4-space) with their object keys shuffled: each text parses back to the value, its findings are exactly
//   validateLwir's for the value (so they depend neither on key order nor on formatting), and every finding's
//   range is one conformance/check.mjs accepts for its path;
// - the same for every corpus document that is plain JSON data.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import YAML from "yaml";
import { parseDocument } from "../../server/src/document/document";
import type { Format, LwirDocument, Position, Range } from "../../server/src/document/types";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import { toDiagnostics } from "../../server/src/service/diagnostics";
import { provideCompletion, provideCompletionFromText } from "../../server/src/service/completion";
import { fixAllNeeds, provideCodeActions } from "../../server/src/service/codeActions";
import { FIX_ALL_KIND } from "../../server/src/protocol";
import { cursorAt } from "../../server/src/service/cursor";
import { factsOf } from "../../server/src/service/stepFacts";
import { provideHover } from "../../server/src/service/hover";
import { provideDefinition, provideReferences } from "../../server/src/service/definition";
import { providePrepareRename, provideRename } from "../../server/src/service/rename";
import { provideDocumentSymbols } from "../../server/src/service/symbols";
import { provideFoldingRanges } from "../../server/src/service/folding";
import { provideSelectionRanges } from "../../server/src/service/selection";
import { provideSemanticTokens } from "../../server/src/service/semanticTokens";
import { provideCodeLenses, workflowVersionInfo } from "../../server/src/service/codeLens";
import { classifyDocument } from "../../server/src/service/workspace";
import { readSettings } from "../../server/src/service/settings";
import { API_VERSION, KIND, STEP_TYPES, validateLwir } from "../../server/src/lwir/validate";
import type { PathSegment } from "../../server/src/lwir/types";
import { allPaths, rangeProblem } from "../unit/document-helpers";
import { SEED, conformanceDocs, randomSource, reportFigures, shuffled, type SourceDoc } from "./support";

const URI = "file:///lwir-test/props.lwir.json";
const figures = { textCases: 0, serviceCalls: 0, valueCases: 0, renderings: 0, corpusDocuments: 0 };

// ---- arbitrary text ------------------------------------------------------------------------------

const CORPUS = conformanceDocs();
/** Pieces of both syntaxes, so random text is often almost a document. */
const TOKENS = [
  "{", "}", "[", "]", '"', "'", ":", ",", " ", "  ", "\n", "\r\n", "\r", "\t", "-", "- ", "? ", "|", ">", "&a", "*a", "!!str", "#",
  "---", "...", "{{", "}}", "steps", "id", "needs", "uses", "with", "output", "apiVersion", API_VERSION, "Workflow", "ai.generate",
  "parallel", "decision", "steps.a.output", "item.", "input.", "\\", "\\u", "null", "true", "1e999", "-0", "\u0000", "\ufeff", "😀", "é",
];
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const soup = fc.array(fc.oneof(fc.constantFrom(...TOKENS), loneSurrogate, fc.string({ maxLength: 3 })), { maxLength: 60 }).map((a) => a.join(""));
const corpusText = fc.nat(CORPUS.length - 1).map((i) => CORPUS[i]);
/** A corpus document cut at a random point (the state of a document being typed). */
const truncated = fc.tuple(corpusText, fc.double({ min: 0, max: 1, noNaN: true })).map(([d, f]) => ({ ...d, text: d.text.slice(0, Math.floor(d.text.length * f)) }));
/** A corpus document with a few random single-character edits. */
const mutated = fc.tuple(corpusText, fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), fc.oneof(fc.constantFrom(...TOKENS), loneSurrogate)), { minLength: 1, maxLength: 6 }))
  .map(([d, edits]) => {
    let text = d.text;
    for (const [f, del, ins] of edits) {
      const at = Math.floor(text.length * f);
      text = del ? text.slice(0, at) + text.slice(at + 1) : text.slice(0, at) + ins + text.slice(at);
    }
    return { ...d, text, original: d.text };
  });

interface TextCase {
  text: string;
  format: Format;
  /** The text this one was edited from (its analysis plays "last good" and its diagnostics the stale ones). */
  original?: string;
}

const textCase: fc.Arbitrary<TextCase> = fc.oneof(
  fc.tuple(fc.string({ unit: "binary", maxLength: 80 }), fc.constantFrom<Format>("json", "yaml")).map(([text, format]) => ({ text, format })),
  fc.tuple(soup, fc.constantFrom<Format>("json", "yaml")).map(([text, format]) => ({ text, format })),
  truncated.map((d) => ({ text: d.text, format: d.format, original: CORPUS.find((c) => c.name === d.name)!.text })),
  mutated.map((d) => ({ text: d.text, format: d.format, original: d.original })),
  // the "wrong" format: a JSON document read as YAML and the other way round
  corpusText.map((d) => ({ text: d.text, format: d.format === "json" ? ("yaml" as const) : ("json" as const) })),
);

/** Positions inside, at the edges of, and well outside the text. */
function positionsFor(doc: LwirDocument, picks: number[], wild: Position[]): Position[] {
  const n = doc.text.length;
  const lines = doc.lineStarts.length;
  return [
    ...picks.map((p) => doc.positionAt(n === 0 ? 0 : p % (n + 1))),
    { line: 0, character: 0 },
    doc.positionAt(n),
    { line: lines - 1, character: 10_000 },
    { line: lines + 3, character: 0 },
    ...wild,
  ];
}

const wildPosition = fc.record({ line: fc.integer({ min: -3, max: 1_000_000_000 }), character: fc.integer({ min: -3, max: 1_000_000_000 }) });

function assertPositionInside(doc: LwirDocument, p: Position, what: string): void {
  assert.ok(Number.isInteger(p.line) && Number.isInteger(p.character) && p.line >= 0 && p.character >= 0, `${what}: ${JSON.stringify(p)}`);
  assert.ok(p.line < doc.lineStarts.length, `${what}: line ${p.line} past the last line ${doc.lineStarts.length - 1}`);
  const back = doc.positionAt(doc.offsetAt(p));
  assert.deepEqual(back, p, `${what}: ${p.line}:${p.character} is past its line's end`);
}

function assertRangeInside(doc: LwirDocument, r: Range, what: string): void {
  assertPositionInside(doc, r.start, `${what} start`);
  assertPositionInside(doc, r.end, `${what} end`);
  assert.ok(doc.offsetAt(r.start) <= doc.offsetAt(r.end), `${what}: range ends before it starts`);
}

/** Every editor feature on one text at the given positions; returns the number of calls made. */
function exerciseServices(c: TextCase, picks: number[], wild: Position[]): number {
  let calls = 0;
  const analysis = analyzeText(c.text, c.format);
  const doc = analysis.document;
  const again = analyzeText(c.text, c.format);
  assert.deepEqual(again.findings, analysis.findings, "analysis is deterministic");
  assert.deepEqual(again.document.parseErrors, analysis.document.parseErrors, "parse errors are deterministic");
  const original = c.original !== undefined ? analyzeText(c.original, c.format) : undefined;
  const lastGood = original && original.document.parseErrors.length === 0 ? original : undefined;

  const diagnostics = toDiagnostics(analysis, { uri: URI, relatedInformation: true });
  calls++;
  for (const d of diagnostics) assertRangeInside(doc, d.range, `diagnostic ${String(d.code)}`);
  for (const f of analysis.findings) assertRangeInside(doc, f.range, `finding ${f.code}`);
  for (const p of doc.parseErrors) assertRangeInside(doc, p.range, "parse error");
  const stale = original ? toDiagnostics(original, { uri: URI, relatedInformation: true }) : [];

  factsOf(analysis);
  fixAllNeeds(analysis);
  provideDocumentSymbols(analysis);
  provideFoldingRanges(doc.text, doc.format);
  provideSemanticTokens(analysis);
  provideCodeLenses(analysis, URI);
  workflowVersionInfo(analysis, URI, true);
  classifyDocument({ uri: URI, languageId: c.format, version: 1, getText: () => c.text }, 1000);
  calls += 9;

  // the path ⇄ range mapping for every path of the value (and absent members below it)
  for (const { segments } of allPaths(doc.value, 300)) {
    assertRangeInside(doc, doc.findingRange(segments), `findingRange(${JSON.stringify(segments)})`);
    const loc = doc.locate(segments);
    if (loc) assert.ok(0 <= loc.valueStart && loc.valueStart <= loc.valueEnd && loc.valueEnd <= c.text.length, `locate(${JSON.stringify(segments)})`);
    calls += 2;
  }

  const positions = positionsFor(doc, picks, wild);
  for (const p of positions) {
    const offset = doc.offsetAt(p);
    doc.pathAt(offset);
    cursorAt(c.text, c.format, offset);
    for (const list of [provideCompletion(analysis, lastGood, p).items, provideCompletionFromText(c.text, c.format, lastGood ?? analysis, p).items]) {
      for (const item of list) {
        const edit = item.textEdit;
        if (edit && "range" in edit) assertRangeInside(doc, edit.range, `completion ${item.label}`);
        for (const e of item.additionalTextEdits ?? []) assertRangeInside(doc, e.range, `completion ${item.label} extra edit`);
      }
    }
    const range: Range = { start: p, end: positions[(positions.indexOf(p) + 1) % positions.length] };
    for (const context of [{ diagnostics }, { diagnostics: stale }, { diagnostics, only: ["quickfix"] }, { diagnostics: [], only: [FIX_ALL_KIND] }]) {
      for (const action of provideCodeActions(analysis, { textDocument: { uri: URI }, range, context })) {
        for (const e of action.edit?.changes?.[URI] ?? []) assertRangeInside(doc, e.range, `code action ${action.title}`);
      }
    }
    provideHover(analysis, p);
    provideDefinition(analysis, p, URI);
    provideReferences(analysis, p, URI, true);
    providePrepareRename(analysis, p);
    provideRename(analysis, p, "renamed-step", URI);
    provideRename(analysis, p, "", URI);
    calls += 13;
  }
  provideSelectionRanges(doc, positions);
  calls++;
  return calls;
}

// ---- arbitrary LWIR-shaped values ----------------------------------------------------------------

const stepId = fc.constantFrom("a", "b", "c", "fetch", "write", "end", "", "A b", "x".repeat(70));
const template = fc.constantFrom(
  "{{ steps.a.output }}", "{{ steps.b.lastOutput.x }}", "{{ input.topic }}", "{{ item.id }}", "{{ json(steps.c.allVisits) }}",
  "plain text", "{{", "}}", "{{ steps. }}", "{{ a || }}", "{{ steps['a'].output }}", "{{ constructor }}",
);
const key = fc.oneof(
  fc.constantFrom("id", "uses", "needs", "with", "output", "steps", "maxVisits", "mode", "schema", "model", "prompt", "type", "properties", "cases", "default", "to", "when", "items"),
  fc.string({ maxLength: 6 }).filter((k) => k !== "__proto__"),
);
const { json: anyJson } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null), fc.boolean(), fc.integer({ min: -5, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true }), template, stepId,
    fc.array(tie("json"), { maxLength: 3 }),
    fc.dictionary(key, tie("json"), { maxKeys: 4 }),
  ),
}));
const step = fc.record({
  id: stepId,
  uses: fc.constantFrom(...STEP_TYPES, "x.y"),
  needs: fc.array(stepId, { maxLength: 3 }),
  maxVisits: fc.integer({ min: -1, max: 4 }),
  with: fc.dictionary(key, fc.oneof(template, anyJson), { maxKeys: 4 }),
  output: fc.record({ mode: fc.constantFrom("text", "object", "array", "choice", "json", "?"), schema: anyJson }, { requiredKeys: [] }),
  steps: fc.array(fc.record({ id: stepId, uses: fc.constantFrom(...STEP_TYPES), with: fc.dictionary(key, template, { maxKeys: 2 }) }, { requiredKeys: [] }), { maxLength: 3 }),
  extra: anyJson,
}, { requiredKeys: ["id", "uses"] });
const lwirValue = fc.record({
  apiVersion: fc.constantFrom(API_VERSION, "littleworkflow.dev/v9", 1),
  kind: fc.constantFrom(KIND, "Flow"),
  metadata: fc.record({ name: fc.string({ maxLength: 8 }), version: fc.constantFrom("0.1.0", "x") }, { requiredKeys: [] }),
  input: fc.record({ schema: anyJson }),
  output: fc.record({ schema: anyJson }),
  permissions: fc.record({ tools: fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }), models: fc.array(fc.constantFrom("m", "gpt"), { maxLength: 2 }), secrets: fc.constant([]), network: fc.constant([]) }, { requiredKeys: [] }),
  steps: fc.array(step, { maxLength: 5 }),
  extra: anyJson,
}, { requiredKeys: ["steps"] });

/** The value with every object's keys in a seeded random order (JSON data only: no cycles). */
function shuffleKeys(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((v) => shuffleKeys(v, random));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const k of shuffled(random, Object.keys(value))) {
    Object.defineProperty(out, k, { value: shuffleKeys((value as Record<string, unknown>)[k], random), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const RENDERINGS: Array<{ name: string; format: Format; render: (v: unknown) => string }> = [
  { name: "JSON, 2-space", format: "json", render: (v) => JSON.stringify(v, null, 2) },
  { name: "JSON, one line", format: "json", render: (v) => JSON.stringify(v) },
  { name: "JSON, tabs and CRLF", format: "json", render: (v) => JSON.stringify(v, null, "\t").replace(/\n/g, "\r\n") + "\r\n" },
  { name: "YAML, block", format: "yaml", render: (v) => YAML.stringify(v) },
  { name: "YAML, flow", format: "yaml", render: (v) => YAML.stringify(v, { collectionStyle: "flow" }) },
  { name: "YAML, 4-space, unindented sequences", format: "yaml", render: (v) => YAML.stringify(v, { indent: 4, indentSeq: false }) },
];

const findingKeys = (findings: ReadonlyArray<{ code: string; path: string }>): string[] => findings.map((f) => `${f.path} ${f.code}`).sort();

/** Renders `value` every way with shuffled keys and checks value, findings and ranges of each text. */
function checkRenderings(value: unknown, seed: number, label: string): number {
  const expected = validateLwir(value);
  const expectedKeys = findingKeys(expected.findings);
  let count = 0;
  for (const [i, rendering] of RENDERINGS.entries()) {
    const text = rendering.render(shuffleKeys(value, randomSource(seed + i)));
    const what = `${label}, ${rendering.name}`;
    const analysis: Analysis = analyzeText(text, rendering.format);
    assert.deepEqual(analysis.document.parseErrors, [], `${what}: parses`);
    assert.deepEqual(analysis.document.value, value, `${what}: reads back the value`);
    assert.deepEqual(findingKeys(analysis.findings), expectedKeys, `${what}: findings are validateLwir's for the value`);
    assert.equal(analysis.valid, expected.findings.length === 0, `${what}: validity`);
    for (const f of analysis.findings) {
      const problem = rangeProblem(rendering.format, text, f.segments as PathSegment[], f.range);
      assert.equal(problem, undefined, `${what}: ${f.code} at ${f.path}: ${problem}`);
    }
    count++;
  }
  return count;
}

/** JSON data: survives a JSON round trip unchanged (no cycles, -0, non-finite numbers, Maps or Sets). */
function plainJson(value: unknown): unknown | undefined {
  try {
    const copy: unknown = JSON.parse(JSON.stringify(value));
    assert.deepStrictEqual(copy, value);
    return copy;
  } catch {
    return undefined;
  }
}

describe("service-level properties", { timeout: 240_000 }, () => {
  test("arbitrary text at arbitrary positions: parsing, mapping and every feature return, with positions inside the document", () => {
    fc.assert(fc.property(textCase, fc.array(fc.nat(), { maxLength: 5 }), fc.array(wildPosition, { maxLength: 2 }), (c, picks, wild) => {
      const doc = parseDocument(c.text, c.format);
      assert.equal(doc.text, c.text);
      figures.textCases++;
      figures.serviceCalls += exerciseServices(c, picks, wild);
    }), {
      seed: SEED, numRuns: 600,
      examples: [
        // found by the robustness tests: completion on the second line of a YAML text whose first line is empty looped forever
        [{ text: "\n\napiVersion: littleworkflow.dev/v0.1\n", format: "yaml" }, [1, 2], []],
        [{ text: "\n", format: "yaml" }, [1], [{ line: 1, character: 0 }]],
      ],
    });
  });

  test("arbitrary settings objects are read without throwing, into valid settings", () => {
    fc.assert(fc.property(fc.anything(), (raw) => {
      const s = readSettings(raw);
      assert.equal(typeof s.validation.enable, "boolean");
      assert.ok(Number.isFinite(s.validation.delay) && s.validation.delay >= 0);
      assert.ok(Number.isFinite(s.maxFileSize) && s.maxFileSize >= 0);
    }), { seed: SEED, numRuns: 300 });
  });

  test("LWIR-shaped values: every rendering, keys shuffled, has validateLwir's findings at ranges check.mjs accepts", () => {
    fc.assert(fc.property(lwirValue, fc.nat(), (generated, seed) => {
      // as JSON data: plain prototypes, no -0 (what a document can hold)
      const value: unknown = JSON.parse(JSON.stringify(generated));
      figures.valueCases++;
      figures.renderings += checkRenderings(value, seed, "generated");
    }), { seed: SEED, numRuns: 250 });
  });

  test("every corpus document that is JSON data: every rendering, keys shuffled, keeps its findings", () => {
    const used: SourceDoc[] = [];
    for (const [i, d] of CORPUS.entries()) {
      const parsed = parseDocument(d.text, d.format);
      if (parsed.parseErrors.length > 0) continue;
      const value = plainJson(parsed.value);
      if (value === undefined) continue;
      // the corpus file itself agrees with its renderings
      assert.deepEqual(findingKeys(analyzeText(d.text, d.format).findings), findingKeys(validateLwir(value).findings), d.name);
      figures.renderings += checkRenderings(value, SEED + i, d.name);
      used.push(d);
    }
    figures.corpusDocuments = used.length;
    assert.ok(used.length > CORPUS.length * 0.9, `most corpus documents are JSON data (${used.length} of ${CORPUS.length})`);
    reportFigures("properties", { seed: SEED, ...figures });
  });
});

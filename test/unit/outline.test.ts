// The outline features against the service layer, in JSON and YAML: document symbols, folding ranges,
// selection ranges, semantic tokens (scopes: the same id in two parallel bodies), the WorkflowVersion
// code lens and the lwir/workflowVersion data; plus the string source map they rely on.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { Scalar, stringify as toYaml } from "yaml";
import { SymbolKind, type DocumentSymbol, type Range } from "vscode-languageserver-types";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyzeText } from "../../server/src/service/analysis";
import { parseDocument } from "../../server/src/document/document";
import { canonicalJson, workflowVersionOf } from "../../server/src/lwir/canonical";
import { valueAt } from "../../server/src/lwir/path";
import { provideDocumentSymbols } from "../../server/src/service/symbols";
import { provideFoldingRanges } from "../../server/src/service/folding";
import { provideSelectionRanges } from "../../server/src/service/selection";
import { provideSemanticTokens, SEMANTIC_TOKENS_LEGEND } from "../../server/src/service/semanticTokens";
import { provideCodeLenses, workflowVersionInfo } from "../../server/src/service/codeLens";
import { ACTIVE_LWIR_CONTEXT, COPY_WORKFLOW_VERSION_COMMAND, OPEN_GRAPH_COMMAND, SHOW_CANONICAL_JSON_COMMAND, SHOW_PROBLEMS_COMMAND } from "../../server/src/protocol";
import { sourceSpan, stringSource } from "../../server/src/service/stringSource";
import {
  FORMATS, OUTLINE_TOKENS, SCOPED_TOKENS, decodeTokens, outlineWorkflow, render, scopedWorkflow, selectionTexts, strictlyNested, tokenSummary,
  type Format,
} from "./outline-fixtures";
import type { Json } from "./lwir-fixtures";

const URI = "file:///w/outline.lwir.json";

function analysis(doc: Json, format: Format) {
  const text = render(doc, format);
  return { text, analysis: analyzeText(text, format) };
}

function slice(text: string, range: Range): string {
  const doc = TextDocument.create("untitled:t", "plaintext", 0, text);
  return text.slice(doc.offsetAt(range.start), doc.offsetAt(range.end));
}

/** The selection chain at the first occurrence of `marker` in `text`, `delta` characters into it. */
function selectionAt(text: string, format: Format, marker: string, delta = 0) {
  const doc = parseDocument(text, format);
  const offset = text.indexOf(marker);
  assert.ok(offset >= 0, `${marker} in the text`);
  const [range] = provideSelectionRanges(doc, [doc.positionAt(offset + delta)]);
  return range;
}

function contains(outer: Range, inner: Range): boolean {
  const le = (a: Range["start"], b: Range["start"]) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return le(outer.start, inner.start) && le(inner.end, outer.end);
}

function checkNesting(symbols: DocumentSymbol[], parent?: DocumentSymbol): void {
  for (const s of symbols) {
    assert.ok(contains(s.range, s.selectionRange), `${s.name}: selectionRange inside range`);
    if (parent) assert.ok(contains(parent.range, s.range), `${s.name} inside ${parent.name}`);
    checkNesting(s.children ?? [], s);
  }
}

describe("document symbols", () => {
  for (const format of FORMATS) {
    test(`${format}: top-level keys, steps by id with uses as detail, parallel bodies nested`, () => {
      const { text, analysis: a } = analysis(outlineWorkflow(), format);
      assert.equal(a.valid, true, JSON.stringify(a.findings));
      const symbols = provideDocumentSymbols(a);
      assert.deepEqual(symbols.map((s) => s.name), ["apiVersion", "kind", "metadata", "input", "output", "permissions", "steps"]);
      const byName = new Map(symbols.map((s) => [s.name, s]));
      assert.equal(byName.get("metadata")!.detail, "outline-demo");
      assert.deepEqual(byName.get("metadata")!.children!.map((c) => `${c.name}=${c.detail}`), ["name=outline-demo", "version=1.0.0"]);
      assert.deepEqual(byName.get("input")!.children!.map((c) => `${c.name}:${c.detail}`), ["topic:string", "list:array"]);
      assert.deepEqual(byName.get("permissions")!.children!.map((c) => `${c.name}:${c.detail}`), ["models:model-a", "tools:search"]);

      const steps = byName.get("steps")!;
      assert.equal(steps.detail, "5 steps");
      const outline = (list: DocumentSymbol[]): unknown[] =>
        list.map((s) => (s.children ? [s.name, s.detail, s.kind, outline(s.children)] : [s.name, s.detail, s.kind]));
      assert.deepEqual(outline(steps.children!), [
        ["load", "tool.call", SymbolKind.Method],
        ["fanA", "parallel", SymbolKind.Array, [["one", "ai.generate", SymbolKind.Function]]],
        ["fanB", "parallel", SymbolKind.Array, [["one", "ai.generate", SymbolKind.Function], ["two", "ai.generate", SymbolKind.Function]]],
        ["route", "decision", SymbolKind.Event],
        ["report", "ai.generate", SymbolKind.Function],
      ]);
      checkNesting(symbols);

      // a step's range is the step object, its selection range the id value
      const fanB = steps.children![2];
      const id = format === "json" ? '"fanB"' : "fanB";
      assert.equal(slice(text, fanB.selectionRange), id);
      const object = slice(text, fanB.range);
      assert.ok(object.startsWith(format === "json" ? "{" : "id: fanB"), object.slice(0, 20));
      assert.ok(object.endsWith(format === "json" ? "}" : "type: string"), object.slice(-20));
      assert.equal(slice(text, steps.selectionRange), format === "json" ? '"steps"' : "steps");
      // the second "one" is the one of fanB's body
      assert.ok(contains(fanB.range, fanB.children![0].range));
    });

    test(`${format}: steps without a valid id are "(step N)"; duplicates are marked`, () => {
      const doc = outlineWorkflow();
      doc.steps[0].id = "bad.id";
      delete doc.steps[4].id;
      doc.steps[3].id = "fanB";
      const { analysis: a } = analysis(doc, format);
      const steps = provideDocumentSymbols(a).find((s) => s.name === "steps")!;
      assert.deepEqual(steps.children!.map((s) => `${s.name}|${s.detail}`), [
        "(step 1)|tool.call", "fanA|parallel", "fanB|parallel", "fanB|decision (duplicate id)", "(step 5)|ai.generate",
      ]);
      checkNesting(steps.children!);
    });

    test(`${format}: nothing for a document that does not parse or is not an object`, () => {
      const broken = format === "json" ? '{"steps": [' : "steps: [\n";
      assert.deepEqual(provideDocumentSymbols(analyzeText(broken, format)), []);
      assert.deepEqual(provideDocumentSymbols(analyzeText(format === "json" ? "[1]" : "- 1\n", format)), []);
    });
  }
});

describe("folding ranges", () => {
  const ranges = (text: string, format: Format) => provideFoldingRanges(text, format).map((r) => `${r.startLine}-${r.endLine}${r.kind ? ` ${r.kind}` : ""}`);

  test("json: objects and arrays spanning lines; a closing bracket on its own line stays visible", () => {
    const text = ['{', '  "a": {', '    "b": [1,', '      2]', '  },', '  "c": [', '  ],', '  "d": "{ not [ a bracket"', '}'].join("\n");
    assert.deepEqual(ranges(text, "json"), ["0-7", "1-3", "2-3"]);
  });

  test("json: also while the text is broken, and with CRLF line breaks", () => {
    const text = ['{', '  "steps": [', '    {', '      "id": "a",', '      "uses": ', '    }', '  ]', '}'].join("\r\n");
    assert.deepEqual(ranges(text, "json"), ["0-6", "1-5", "2-4"]);
    assert.deepEqual(ranges('{\n  "a": [\n    "unterminated\n  ]\n}', "json"), ["0-3", "1-2"]);
  });

  test("yaml: mappings, compact sequences, block scalars, flow collections, multi-line scalars, comments", () => {
    const text = [
      "apiVersion: x", //             0
      "metadata:", //                 1
      "  name: n", //                 2
      "steps:", //                    3
      "- id: a", //                   4
      "  with:", //                   5
      "    prompt: |", //             6
      "      line one", //            7
      "", //                          8
      "      - not: a key", //        9
      "    other: [1,", //            10
      "      2]", //                  11
      "# one", //                     12
      "# two", //                     13
      "- id: b", //                   14
      '  needs: ["a",', //            15
      '    "b"]', //                  16
      'text: "multi', //              17
      '  line: no key"', //           18
      "# region more", //             19
      "end: 1", //                    20
      "# endregion", //               21
      "",
    ].join("\n");
    assert.deepEqual(ranges(text, "yaml"), [
      "1-2", "3-16", "4-11", "5-11", "6-9", "10-11", "12-13 comment", "14-16", "15-16", "17-18", "19-21 region",
    ]);
  });

  test("yaml: an unclosed bracket or quote (mid-typing) does not swallow the rest; JSON-like YAML folds", () => {
    const text = ["a:", "  b: [1,", "  c: \"open", "  d:", "    e: 1", "f:", "  g: 1", ""].join("\n");
    assert.deepEqual(ranges(text, "yaml"), ["0-4", "3-4", "5-6"]);
    assert.deepEqual(ranges('{\n"a": [\n  1\n],\n"b": 2\n}\n', "yaml"), ["0-4", "1-2"]);
  });

  for (const format of FORMATS) {
    test(`${format}: every step and parallel body folds`, () => {
      const text = render(outlineWorkflow(), format);
      const doc = parseDocument(text, format);
      const folded = new Set(provideFoldingRanges(text, format).map((r) => r.startLine));
      for (const segments of [["steps"], ["steps", 1], ["steps", 1, "steps"], ["steps", 2, "steps", 1], ["input", "schema"]]) {
        const loc = doc.locate(segments)!;
        const line = doc.positionAt(loc.keyStart ?? loc.valueStart).line;
        // a YAML sequence item folds from its `- ` line, which is where its value starts
        assert.ok(folded.has(line), `${segments.join(".")} folds at line ${line}`);
      }
    });
  }
});

describe("selection ranges", () => {
  for (const format of FORMATS) {
    const q = (s: string) => (format === "json" ? `"${s}"` : s);

    test(`${format}: from a step id in an expression out to the document, strictly nested`, () => {
      const text = render(outlineWorkflow(), format);
      const range = selectionAt(text, format, "steps.load.output", "steps.".length + 1);
      assert.ok(strictlyNested(range, text));
      const texts = selectionTexts(range, text);
      const prompt = "{{ item }} after {{ steps.load.output }}";
      assert.deepEqual(texts.slice(0, 6), [
        "load", "steps.load.output", "{{ steps.load.output }}", prompt, `"${prompt}"`, `${q("prompt")}: "${prompt}"`,
      ]);
      assert.equal(texts[texts.length - 1], text);
      // the enclosing step, its list and the parallel step's property are on the way out
      assert.ok(texts.some((t) => t.startsWith(format === "json" ? '{\n          "id": "one"' : "id: one")));
      assert.ok(texts.some((t) => t.startsWith(`${q("steps")}: [`) || t.startsWith("steps:\n      - id: one")));
      if (format === "yaml") assert.ok(texts.some((t) => t.startsWith("- id: one")), "a sequence item with its dash");
    });

    test(`${format}: on a key, on a plain word, between members`, () => {
      const text = render(outlineWorkflow(), format);
      const key = selectionTexts(selectionAt(text, format, q("uses"), 2), text);
      assert.deepEqual(key.slice(0, format === "json" ? 3 : 2),
        format === "json" ? ["uses", '"uses"', '"uses": "tool.call"'] : ["uses", "uses: tool.call"]);
      const word = selectionTexts(selectionAt(text, format, "Report on", 2), text);
      assert.deepEqual(word.slice(0, 2), ["Report", "Report on {{ input.topic }}"]);
      const nested = selectAll(text, format);
      assert.ok(nested, "every offset gives a strictly nested chain ending at the document");
    });

    test(`${format}: inside a document with a syntax error`, () => {
      const good = render(outlineWorkflow(), format);
      const text = good.replace(format === "json" ? '"kind": "Workflow",' : "kind: Workflow", format === "json" ? '"kind": "Workflow"' : "kind: [Workflow");
      assert.ok(parseDocument(text, format).parseErrors.length > 0);
      const range = selectionAt(text, format, "steps.load.output", 7);
      assert.deepEqual(selectionTexts(range, text).slice(0, 3), ["load", "steps.load.output", "{{ steps.load.output }}"]);
      assert.ok(strictlyNested(range, text));
    });
  }

  test("yaml: expressions in block, folded and quoted scalars map to the right source", () => {
    const text = [
      "a: |",
      "  first {{ x }}",
      "  then {{ steps.deep.output }}",
      "b: >-",
      "  folded",
      "  {{ steps.fold.output }}",
      "c: 'it''s {{ steps.single.output }}'",
      'd: "\\t{{ steps.double.output }}"',
      "",
    ].join("\n");
    for (const id of ["deep", "fold", "single", "double"]) {
      const texts = selectionTexts(selectionAt(text, "yaml", `steps.${id}`, 7), text);
      assert.deepEqual(texts.slice(0, 3), [id, `steps.${id}.output`, `{{ steps.${id}.output }}`]);
    }
  });

  test("json: escapes before the expression do not shift it", () => {
    const text = '{"p": "\\"quoted\\" \\u00e9 {{ steps.load.output }}"}';
    const texts = selectionTexts(selectionAt(text, "json", "load"), text);
    assert.deepEqual(texts.slice(0, 5), ["load", "steps.load.output", "{{ steps.load.output }}", '\\"quoted\\" \\u00e9 {{ steps.load.output }}', '"\\"quoted\\" \\u00e9 {{ steps.load.output }}"']);
  });
});

/** Strictly nested chains that end at the whole document, at every 7th offset. */
function selectAll(text: string, format: Format): boolean {
  const doc = parseDocument(text, format);
  for (let offset = 0; offset <= text.length; offset += 7) {
    const [range] = provideSelectionRanges(doc, [doc.positionAt(offset)]);
    const texts = selectionTexts(range, text);
    if (!strictlyNested(range, text) || texts[texts.length - 1] !== text) return false;
  }
  return true;
}

describe("semantic tokens", () => {
  test("legend: resolving steps are functions, the others variables with the unresolved modifier", () => {
    assert.deepEqual(SEMANTIC_TOKENS_LEGEND, { tokenTypes: ["function", "variable"], tokenModifiers: ["declaration", "defaultLibrary", "unresolved"] });
  });

  for (const format of FORMATS) {
    test(`${format}: declarations, needs, decision targets, outputStep and steps.X in expressions`, () => {
      const { text, analysis: a } = analysis(outlineWorkflow(), format);
      const tokens = decodeTokens(provideSemanticTokens(a).data, text);
      assert.deepEqual(tokenSummary(tokens), OUTLINE_TOKENS);
      // positions: the token of `load` in `{{ steps.load.output }}`
      const at = text.indexOf("steps.load.output") + "steps.".length;
      const p = TextDocument.create("untitled:t", "plaintext", 0, text).positionAt(at);
      assert.ok(tokens.some((t) => t.line === p.line && t.character === p.character && t.length === 4 && t.type === "function"));
    });

    test(`${format}: scopes: the same id in two bodies, body steps do not see each other's bodies`, () => {
      const { text, analysis: a } = analysis(scopedWorkflow(), format);
      const tokens = decodeTokens(provideSemanticTokens(a).data, text);
      assert.deepEqual(tokenSummary(tokens), SCOPED_TOKENS);
      const two = tokens.find((t) => t.type === "variable" && t.text === "two")!;
      const at = TextDocument.create("untitled:t", "plaintext", 0, text).positionAt(text.indexOf("steps.two.output") + 6);
      assert.deepEqual([two.line, two.character, two.length], [at.line, at.character, 3]);
    });

    test(`${format}: nothing for a document that does not parse`, () => {
      assert.deepEqual(provideSemanticTokens(analyzeText(format === "json" ? '{"steps": [' : "steps: [\n", format)).data, []);
    });
  }

  test("json: ids written with escapes, and steps[\"X\"]", () => {
    const text = render(outlineWorkflow(), "json")
      .replace('"needs": [\n        "load"\n      ],\n      "with": {\n        "items"', '"needs": [\n        "lo\\u0061d"\n      ],\n      "with": {\n        "items"')
      .replace('"{{ item }} after {{ steps.load.output }}"', '"\\"\\u00e9\\" {{ item }} after {{ steps[\\"load\\"].output }} {{ steps[\'load\'].output }}"');
    const a = analyzeText(text, "json");
    assert.equal(a.document.parseErrors.length, 0);
    const tokens = decodeTokens(provideSemanticTokens(a).data, text);
    assert.ok(tokens.some((t) => t.text === "lo\\u0061d" && t.type === "function" && t.length === 9), tokenSummary(tokens).join(", "));
    const lines = TextDocument.create("untitled:t", "plaintext", 0, text);
    for (const at of [text.indexOf("steps['load']") + 7, text.indexOf('steps[\\"load\\"]') + 8]) {
      const p = lines.positionAt(at);
      assert.ok(tokens.some((t) => t.line === p.line && t.character === p.character && t.text === "load" && t.type === "function"), `${at}`);
    }
  });

  test("yaml: ids inside block, folded and quoted scalars", () => {
    const text = render(outlineWorkflow(), "yaml")
      .replace('prompt: "{{ item }} after {{ steps.load.output }}"', "prompt: |\n              {{ item }}\n              after {{ steps.load.output }}")
      .replace("prompt: Polish {{ steps.one.output }}", "prompt: >-\n              Polish\n              {{ steps.one.output }}")
      .replace("- one\n", "- \"\\x6Fne\"\n");
    const a = analyzeText(text, "yaml");
    assert.equal(a.valid, true, JSON.stringify(a.findings) + text);
    const tokens = decodeTokens(provideSemanticTokens(a).data, text);
    assert.deepEqual(tokenSummary(tokens).map((t) => t.replace("\\x6Fne", "one")), OUTLINE_TOKENS);
    assert.ok(tokens.some((t) => t.text === "\\x6Fne"));
  });
});

describe("WorkflowVersion", () => {
  for (const format of FORMATS) {
    test(`${format}: the code lens on apiVersion shows the id of a valid document`, () => {
      const { text, analysis: a } = analysis(outlineWorkflow(), format);
      const expected = workflowVersionOf(outlineWorkflow());
      const [lens, graph, ...rest] = provideCodeLenses(a, URI);
      assert.equal(rest.length, 0);
      assert.equal(slice(text, graph.range), format === "json" ? '"steps"' : "steps");
      assert.deepEqual(graph.command, { title: "Open graph", command: OPEN_GRAPH_COMMAND, arguments: [{ uri: URI }], tooltip: "Show the workflow's graph beside the editor." });
      assert.equal(slice(text, lens.range), format === "json" ? '"apiVersion"' : "apiVersion");
      assert.equal(lens.command?.title, `WorkflowVersion ${expected.id}`);
      assert.equal(lens.command?.command, COPY_WORKFLOW_VERSION_COMMAND);
      assert.deepEqual(lens.command?.arguments, [{ uri: URI, id: expected.id }]);
    });

    test(`${format}: the code lens counts the problems of an invalid document`, () => {
      const { analysis: a } = analysis(scopedWorkflow(), format);
      const [lens] = provideCodeLenses(a, URI);
      assert.equal(lens.command?.title, `${a.findings.length} problems`);
      assert.equal(lens.command?.command, SHOW_PROBLEMS_COMMAND);
      const one = outlineWorkflow();
      one.steps[4].with.prompt = "{{ steps.nope.output }}";
      assert.equal(provideCodeLenses(analysis(one, format).analysis, URI)[0].command?.title, "1 problem");
      const broken = analyzeText(format === "json" ? '{"apiVersion": 1,' : "apiVersion: [\n", format);
      const [brokenLens, ...brokenRest] = provideCodeLenses(broken, URI);
      assert.equal(brokenRest.length, 0, "a document that does not parse has no graph lens");
      assert.equal(brokenLens.command?.title, `${broken.document.parseErrors.length} problem${broken.document.parseErrors.length === 1 ? "" : "s"}`);
    });

    test(`${format}: an empty document has no problem count (no lens; the status bar says empty, not an error)`, () => {
      for (const text of ["", "\n  \n", ...(format === "yaml" ? ["# a new workflow\n"] : [])]) {
        const a = analyzeText(text, format);
        assert.deepEqual(workflowVersionInfo(a, URI, true), { uri: URI, valid: false, id: null, hash: null, problems: 0, empty: true }, JSON.stringify(text));
        assert.deepEqual(provideCodeLenses(a, URI), [], JSON.stringify(text));
      }
      // one character of content: no longer empty, its problems are counted again
      const started = workflowVersionInfo(analyzeText(format === "json" ? "{" : "a", format), URI);
      assert.equal(started.empty, undefined);
      assert.ok(started.problems > 0);
    });

    test(`${format}: lwir/workflowVersion data is workflowVersionOf and canonicalJson of the value`, () => {
      const { analysis: a } = analysis(outlineWorkflow(), format);
      const value = outlineWorkflow();
      const { id, hash } = workflowVersionOf(value);
      assert.deepEqual(workflowVersionInfo(a, URI), { uri: URI, valid: true, id, hash, problems: 0 });
      assert.deepEqual(workflowVersionInfo(a, URI, true), { uri: URI, valid: true, id, hash, problems: 0, canonicalJson: canonicalJson(value) });
      const invalid = analysis(scopedWorkflow(), format).analysis;
      const info = workflowVersionInfo(invalid, URI, true);
      assert.deepEqual({ ...info, canonicalJson: undefined }, { uri: URI, valid: false, id: null, hash: null, problems: invalid.findings.length, canonicalJson: undefined });
      assert.equal(info.canonicalJson, canonicalJson(scopedWorkflow()), "an invalid but hashable document still has its canonical form");
      const broken = workflowVersionInfo(analyzeText(format === "json" ? "{" : "a: [", format), URI, true);
      assert.equal(broken.canonicalJson, undefined);
      assert.equal(broken.valid, false);
      assert.ok(broken.problems > 0);
      assert.equal(broken.syntaxErrors, broken.problems, "a document that does not parse: its problems are syntax errors");
    });
  }

  test("package.json names the commands and the context key of server/src/protocol.ts", () => {
    const manifest = JSON.parse(readFileSync("package.json", "utf8"));
    const commands = manifest.contributes.commands as Array<{ command: string; title: string; category: string }>;
    for (const [command, title] of [[COPY_WORKFLOW_VERSION_COMMAND, "Copy WorkflowVersion id"], [SHOW_CANONICAL_JSON_COMMAND, "Show canonical JSON"], [OPEN_GRAPH_COMMAND, "Open Graph"]]) {
      const { icon: _icon, ...entry } = commands.find((c) => c.command === command) as { command: string; icon?: string };
      assert.deepEqual(entry, { command, title, category: "LWIR" });
      const menu = manifest.contributes.menus.commandPalette.find((m: { command: string }) => m.command === command);
      assert.equal(menu?.when, ACTIVE_LWIR_CONTEXT);
    }
    const title = manifest.contributes.menus["editor/title"].find((m: { command: string }) => m.command === OPEN_GRAPH_COMMAND);
    assert.equal(title?.when, ACTIVE_LWIR_CONTEXT);
    assert.equal(title?.group, "navigation");
    assert.match((commands.find((c) => c.command === OPEN_GRAPH_COMMAND) as { icon?: string }).icon ?? "", /^\$\([a-z-]+\)$/);
  });
});

describe("string source map", () => {
  const styles = [Scalar.PLAIN, Scalar.QUOTE_DOUBLE, Scalar.QUOTE_SINGLE, Scalar.BLOCK_LITERAL, Scalar.BLOCK_FOLDED] as const;
  const unit = fc.constantFrom("a", "b", " ", "  ", "\n", "\t", "'", '"', "\\", "é", "😀", "{{", "}}", ":", "#", "-", "\r", "x".repeat(12));

  test("yaml: every scalar style reads back the parsed value (nested, narrow lines, CRLF, flow)", () => {
    fc.assert(fc.property(fc.array(unit, { maxLength: 14 }).map((a) => a.join("")), fc.constantFrom(...styles), fc.integer({ min: 0, max: 3 }),
      fc.constantFrom(8, 20, 80), fc.boolean(), fc.boolean(), (s, style, depth, lineWidth, crlf, flow) => {
        let v: Json = { k: s };
        const segments: (string | number)[] = ["k"];
        for (let i = 0; i < depth; i++) {
          v = i % 2 ? { x: v } : [v];
          segments.unshift(i % 2 ? "x" : 0);
        }
        let text = toYaml(v, { defaultStringType: style, lineWidth, minContentWidth: 0, collectionStyle: flow ? "flow" : "any" });
        if (crlf) text = text.replace(/\n/g, "\r\n");
        const doc = parseDocument(text, "yaml");
        const real = valueAt(doc.value, segments);
        if (doc.parseErrors.length > 0 || typeof real !== "string") return;
        const loc = doc.locate(segments)!;
        const source = stringSource(text, loc.valueStart, loc.valueEnd, "yaml");
        assert.equal(source?.value, real, JSON.stringify(text));
      }), { numRuns: 3000 });
  });

  test("json: any string reads back, and each character maps to its spelling", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 24 }), (s) => {
      const text = JSON.stringify({ k: s });
      const loc = parseDocument(text, "json").locate(["k"])!;
      const source = stringSource(text, loc.valueStart, loc.valueEnd, "json")!;
      assert.equal(source.value, s);
      for (let i = 0; i < s.length; i++) {
        const [a, b] = sourceSpan(source, i, i + 1)!;
        assert.equal(JSON.parse(`"${text.slice(a, b)}"`).length >= 1, true);
      }
    }), { numRuns: 1000 });
  });
});

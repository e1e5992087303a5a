// Type-aware checks of expressions against the declared schemas (lwir/dataTypes.ts, service/typeChecks.ts,
// service/typeFixes.ts): what a schema decides, each check in JSON and YAML, where it squiggles, what it
// leaves alone, its quick fix, and that it never touches validity.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import type { Diagnostic } from "vscode-languageserver-types";
import { canBeArray, describeType, lookupIndex, lookupProperty, possibleValues } from "../../server/src/lwir/dataTypes";
import { analyzeText } from "../../server/src/service/analysis";
import { applyRuleLevels, toDiagnostics } from "../../server/src/service/diagnostics";
import { provideCodeActions } from "../../server/src/service/codeActions";
import { didYouMeanPropertyFixes } from "../../server/src/service/typeFixes";
import type { LwirDiagnosticData } from "../../server/src/service/diagnostics";
import { applyEdits } from "../../server/src/service/edits";
import { checkFile, isFailure } from "../../server/src/cli/check";
import { provideHover } from "../../server/src/service/hover";
import { provideCompletion } from "../../server/src/service/completion";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const TYPE_CODES = ["lwir.unknown_property", "lwir.property_of_scalar_output", "lwir.impossible_comparison", "lwir.items_not_array"];

const SUMMARY = {
  type: "object",
  required: ["summary", "severity"],
  properties: {
    summary: { type: "string", description: "One or two sentences." },
    severity: { type: "string", enum: ["low", "medium", "high"] },
    details: { type: "object", properties: { owner: { type: "string" }, tags: { type: "array", items: { type: "object", properties: { label: { type: "string" } } } } } },
  },
};

/** A valid workflow: `summarize` (object output), `review` (choice), `draft` (text), then `steps`. */
function workflow(steps: Json[], input: Json = { type: "object", properties: { ticket: { type: "string" }, candidates: { type: "array", items: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } } } } }): Json {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "types", version: "0.1.0" },
    input: { schema: input },
    // no type: the final step varies from test to test (the run-time checks compare the two)
    output: { schema: { additionalProperties: true } },
    permissions: { models: ["m"], tools: [], secrets: [], network: [] },
    steps: [
      { id: "summarize", uses: "ai.generate", with: { model: "m", prompt: "Summarise {{ input.ticket }}" }, output: { mode: "object", schema: SUMMARY } },
      { id: "review", uses: "ai.generate", with: { model: "m", prompt: "Review" }, output: { mode: "choice", values: ["approve", "reject"] } },
      { id: "draft", uses: "ai.generate", with: { model: "m", prompt: "Draft" }, output: { mode: "text" } },
      ...steps,
    ],
  };
}

/** A last step reading `prompt`, needing the three first steps. */
function reader(prompt: string, extra: Json = {}): Json {
  return { id: "last", uses: "ai.generate", needs: ["summarize", "review", "draft"], with: { model: "m", prompt }, output: { mode: "text" }, ...extra };
}

function parallel(items: string, body: Json[]): Json {
  return {
    id: "each", uses: "parallel", needs: ["summarize", "review", "draft"],
    with: { items, itemKey: "{{ item.id }}", cardinality: { kind: "matches_items" }, maxBranches: 10, maxConcurrency: 2, failureMode: "all_settled", fanIn: { order: "input", output: "array" } },
    steps: body,
    output: { mode: "array", schema: { type: "array", items: { type: "object", required: ["itemKey", "status", "artifacts"], properties: { itemKey: {}, status: {}, artifacts: {}, output: {} } } } },
  };
}

const FORMATS = ["json", "yaml"] as const;

function text(doc: Json, format: "json" | "yaml"): string {
  return format === "json" ? JSON.stringify(doc, null, 2) : stringify(doc);
}

/** The type diagnostics of a document: `code word` (the squiggled text), and the analysis. */
function check(doc: Json, format: "json" | "yaml", findings: string[] = []) {
  const source = text(doc, format);
  const analysis = analyzeText(source, format);
  assert.deepEqual(analysis.findings.map((f) => `${f.code} ${f.path}`), findings, "the document's findings");
  const diagnostics = toDiagnostics(analysis).filter((d) => TYPE_CODES.includes(String(d.code)));
  const at = (d: Diagnostic) => source.slice(analysis.document.offsetAt(d.range.start), analysis.document.offsetAt(d.range.end));
  return { analysis, source, diagnostics, seen: diagnostics.map((d) => `${d.code} ${at(d)}`) };
}

describe("dataTypes: what a schema decides", () => {
  test("properties: declared, undeclared on an open object, nothing on a free-form object", () => {
    assert.deepEqual(lookupProperty(SUMMARY, "summary"), { kind: "found", schema: SUMMARY.properties.summary });
    assert.deepEqual(lookupProperty(SUMMARY, "sumary"), { kind: "undeclared", declared: ["summary", "severity", "details"] });
    assert.equal(lookupProperty({ type: "object" }, "x").kind, "unknown");
    assert.equal(lookupProperty({ type: "object", additionalProperties: true }, "x").kind, "unknown");
    assert.equal(lookupProperty(true, "x").kind, "unknown");
    // closed with nothing listed: no property can be there
    assert.deepEqual(lookupProperty({ type: "object", additionalProperties: false }, "x"), { kind: "undeclared", declared: [] });
    // a required name counts as declared
    assert.equal(lookupProperty({ type: "object", required: ["a"], properties: { b: {} } }, "a").kind, "found");
  });

  test("additionalProperties schema and patternProperties admit names; propertyNames lists them", () => {
    assert.deepEqual(lookupProperty({ properties: { a: {} }, additionalProperties: { type: "number" } }, "zz"), { kind: "found", schema: { type: "number" } });
    assert.deepEqual(lookupProperty({ properties: { a: {} }, patternProperties: { "^x-": { type: "string" } } }, "x-id"), { kind: "found", schema: { type: "string" } });
    assert.equal(lookupProperty({ properties: { a: {} }, patternProperties: { "^x-": {} } }, "y").kind, "undeclared");
    assert.equal(lookupProperty({ properties: { a: {} }, patternProperties: { "(": {} } }, "y").kind, "unknown", "an unreadable pattern decides nothing");
    assert.deepEqual(lookupProperty({ type: "object", propertyNames: { enum: ["en", "fr"] }, additionalProperties: { type: "string" } }, "de"), { kind: "undeclared", declared: ["en", "fr"] });
    assert.equal(lookupProperty({ type: "object", propertyNames: { enum: ["en", "fr"] }, additionalProperties: { type: "string" } }, "fr").kind, "found");
  });

  test("scalars, arrays, enum and const have no properties", () => {
    assert.deepEqual(lookupProperty({ type: "string" }, "x"), { kind: "noProperties", type: "string" });
    assert.deepEqual(lookupProperty({ type: ["array", "null"] }, "x"), { kind: "noProperties", type: "array or null" });
    assert.deepEqual(lookupProperty({ enum: ["a", "b"] }, "x"), { kind: "noProperties", type: "string" });
    assert.deepEqual(lookupProperty({ const: 3 }, "x"), { kind: "noProperties", type: "number" });
    assert.deepEqual(lookupProperty({ const: { a: 1 } }, "a"), { kind: "found", schema: { enum: [1] } });
    assert.deepEqual(lookupProperty({ enum: [{ a: 1 }] }, "b"), { kind: "undeclared", declared: ["a"] });
  });

  test("anyOf/oneOf decide only when every branch does; allOf adds up its parts", () => {
    const undecided = { anyOf: [{ type: "object", properties: { a: {} } }, { type: "object" }] };
    assert.equal(lookupProperty(undecided, "b").kind, "unknown");
    const decided = { oneOf: [{ type: "object", properties: { a: {} } }, { type: "string" }] };
    assert.deepEqual(lookupProperty(decided, "b"), { kind: "undeclared", declared: ["a"] });
    assert.deepEqual(lookupProperty(decided, "a"), { kind: "found", schema: {} });
    assert.deepEqual(lookupProperty({ anyOf: [{ type: "string" }, { type: "number" }] }, "a"), { kind: "noProperties", type: "string or number" });
    const both = { allOf: [{ properties: { a: { type: "string" } } }, { properties: { b: { type: "number" } } }] };
    assert.deepEqual(lookupProperty(both, "b"), { kind: "found", schema: { type: "number" } });
    assert.deepEqual(lookupProperty(both, "c"), { kind: "undeclared", declared: ["a", "b"] });
    assert.equal(lookupProperty({ allOf: [{ properties: { a: {} } }, { type: "string" }] }, "a").kind, "noProperties");
  });

  test("array elements: items (object or tuple); indexes elsewhere decide nothing", () => {
    assert.deepEqual(lookupIndex({ type: "array", items: { type: "string" } }, 4), { kind: "found", schema: { type: "string" } });
    assert.deepEqual(lookupIndex({ type: "array", items: [{ type: "string" }, { type: "number" }] }, 1), { kind: "found", schema: { type: "number" } });
    assert.equal(lookupIndex({ type: "array", items: [{ type: "string" }] }, 3).kind, "unknown");
    assert.equal(lookupIndex({ type: "object", properties: { 0: {} } }, 0).kind, "unknown");
  });

  test("possible values and arrays", () => {
    assert.deepEqual(possibleValues({ enum: ["a", "b"] }), ["a", "b"]);
    assert.deepEqual(possibleValues({ const: "a" }), ["a"]);
    assert.deepEqual(possibleValues({ anyOf: [{ const: "a" }, { enum: ["b", 1] }] }), ["a", "b", 1]);
    assert.equal(possibleValues({ anyOf: [{ const: "a" }, { type: "string" }] }), undefined);
    assert.deepEqual(possibleValues({ enum: ["a", "b"], allOf: [{ enum: ["b", "c"] }] }), ["b"]);
    assert.equal(possibleValues({ enum: [{ a: 1 }] }), undefined);
    assert.equal(canBeArray({ type: "string" }), false);
    assert.equal(canBeArray({ type: ["array", "null"] }), true);
    assert.equal(canBeArray({ anyOf: [{ type: "string" }, {}] }), undefined);
    assert.equal(canBeArray({ enum: ["a"] }), false);
    assert.equal(describeType({ type: "array", items: { type: "object" } }), "array of object");
    assert.equal(describeType({ enum: ["low", "high"] }), '"low" | "high"');
  });
});

describe("lwir.unknown_property", () => {
  for (const format of FORMATS) {
    test(`${format}: a misspelt property of an output, on the name, with "did you mean"`, () => {
      const { seen, diagnostics } = check(workflow([reader("Summary: {{ steps.summarize.output.sumary }}")]), format);
      assert.deepEqual(seen, ["lwir.unknown_property sumary"]);
      assert.match(String(diagnostics[0].message), /"sumary" is not a declared property of steps\.summarize\.output: its schema declares "summary", "severity", "details"\. Did you mean "summary"\?/);
      assert.equal(diagnostics[0].severity, 2);
    });

    test(`${format}: at any depth, through lastOutput, allVisits[i], array items and input`, () => {
      const { seen } = check(workflow([reader([
        "{{ steps.summarize.lastOutput.details.ownr }}",
        "{{ steps.summarize.allVisits[0].severty }}",
        "{{ steps.summarize.output.details.tags[0].labl }}",
        "{{ input.tiket }}",
        "{{ coalesce(input.candidates[0].nme, 'x') }}",
      ].join(" "))]), format);
      assert.deepEqual(seen, [
        "lwir.unknown_property ownr", "lwir.unknown_property severty", "lwir.unknown_property labl", "lwir.unknown_property tiket", "lwir.unknown_property nme",
      ]);
    });

    test(`${format}: a property of a string-typed value`, () => {
      const { seen, diagnostics } = check(workflow([reader("{{ steps.summarize.output.summary.text }} {{ steps.summarize.allVisits.summary }}")]), format);
      assert.deepEqual(seen, ["lwir.unknown_property text", "lwir.unknown_property summary"]);
      assert.match(String(diagnostics[0].message), /steps\.summarize\.output\.summary is declared as a string: it has no property "text"/);
      assert.match(String(diagnostics[1].message), /steps\.summarize\.allVisits is declared as an array/);
    });

    test(`${format}: item inside a parallel body, from the items' element schema`, () => {
      const body = [{ id: "score", uses: "ai.generate", with: { model: "m", prompt: "Score {{ item.name }} {{ item.nmae }}" }, output: { mode: "text" } }];
      const { seen } = check(workflow([parallel("{{ input.candidates }}", body)]), format);
      assert.deepEqual(seen, ["lwir.unknown_property nmae"]);
    });

    test(`${format}: item in the parallel step's own itemKey, from its items`, () => {
      const body = [{ id: "score", uses: "ai.generate", with: { model: "m", prompt: "Score {{ item.name }}" }, output: { mode: "text" } }];
      const step = parallel("{{ input.candidates }}", body);
      step.with.itemKey = "{{ item.ident }}";
      assert.deepEqual(check(workflow([step]), format).seen, ["lwir.unknown_property ident"]);
    });

    test(`${format}: silent where the schema does not decide`, () => {
      const input = {
        type: "object",
        properties: {
          ticket: { type: "string" },
          open: { type: "object" },
          record: { type: "object", additionalProperties: { type: "object", properties: { n: {} } } },
          union: { anyOf: [
            { type: "object", required: ["kind"], properties: { kind: { const: "a" }, x: { type: "string" } } },
            { type: "object", required: ["kind"], properties: { kind: { const: "b" }, y: { type: "string" } } },
          ] },
        },
      };
      const doc = workflow([reader("{{ input.open.x }} {{ input.record.anything.n }} {{ input.union.x }} {{ input.union.y }} {{ workflow.foo }} {{ step.bar }}")], input);
      assert.deepEqual(check(doc, format).seen, []);
    });

    test(`${format}: a record's values are still checked; a union reports a name no branch has`, () => {
      const input = {
        type: "object",
        properties: {
          ticket: { type: "string" },
          record: { type: "object", additionalProperties: { type: "object", properties: { n: {} } } },
          union: { oneOf: [
            { type: "object", required: ["kind"], properties: { kind: { const: "a" }, x: { type: "string" } } },
            { type: "object", required: ["kind"], properties: { kind: { const: "b" }, y: { type: "string" } } },
          ] },
        },
      };
      assert.deepEqual(check(workflow([reader("{{ input.record.k.m }} {{ input.union.z }}")], input), format).seen, ["lwir.unknown_property m", "lwir.unknown_property z"]);
    });

    test(`${format}: keywords outside the LWIR subset (a schema.invalid finding elsewhere) still decide what they can`, () => {
      // patternProperties and an undiscriminated anyOf are refused in input.schema, but the prompt
      // itself is accepted, so it is checked: a pattern admits x_y, an open branch leaves b undecided
      const input = {
        type: "object",
        properties: {
          ticket: { type: "string" },
          tagged: { type: "object", properties: { a: {} }, patternProperties: { "^x_": {} } },
          either: { anyOf: [{ type: "object", properties: { a: {} } }, { type: "object" }] },
        },
      };
      const { seen } = check(workflow([reader("{{ input.tagged.x_y }} {{ input.either.b }} {{ input.tagged.b }}")], input), format,
        ["schema.invalid $.input.schema", "schema.invalid $.input.schema"]);
      assert.deepEqual(seen, ["lwir.unknown_property b"]);
    });
  }

  test("a document the validator stops on (lwir.non_hashable): templates are screened here instead", () => {
    const doc = workflow([reader("{{ input.tiket }}"), { ...reader("{{ input.process.tiket }}"), id: "other" }]);
    doc.metadata.description = "\ud800"; // a lone surrogate: not canonicalisable
    const analysis = analyzeText(JSON.stringify(doc), "json");
    assert.deepEqual(analysis.findings.map((f) => f.code), ["lwir.non_hashable"]);
    // `process` is refused by the safety screen: that template is left alone
    assert.deepEqual(toDiagnostics(analysis).filter((d) => TYPE_CODES.includes(String(d.code))).map((d) => `${d.code} ${(d.data as { path: string }).path}`),
      ["lwir.unknown_property $.steps[3].with.prompt"]);
  });

  test("a string the runtime already refuses gets no second warning", () => {
    // `last` reads summarize without needing it: step.undeclared_dependency on that string
    const doc = workflow([reader("{{ steps.summarize.output.sumary }}", { needs: ["review"] })]);
    const analysis = analyzeText(JSON.stringify(doc), "json");
    assert.deepEqual(analysis.findings.map((f) => f.code), ["step.undeclared_dependency", "terminal.ambiguous"]);
    assert.deepEqual(toDiagnostics(analysis).filter((d) => TYPE_CODES.includes(String(d.code))), []);
  });
});

describe("lwir.property_of_scalar_output", () => {
  for (const format of FORMATS) {
    test(`${format}: .p on a text or a choice output`, () => {
      const { seen, diagnostics } = check(workflow([reader("{{ steps.draft.output.title }} {{ steps.review.lastOutput.value }} {{ steps.draft.allVisits[0].x }}")]), format);
      assert.deepEqual(seen, ["lwir.property_of_scalar_output title", "lwir.property_of_scalar_output value", "lwir.property_of_scalar_output x"]);
      assert.match(String(diagnostics[0].message), /steps\.draft\.output is the text of a step with output mode text: it has no property "title"/);
      assert.match(String(diagnostics[1].message), /one of the choice values \("approve", "reject"\)/);
    });
  }
});

describe("lwir.impossible_comparison", () => {
  for (const format of FORMATS) {
    test(`${format}: a value the choice does not list, in a prompt and in a decision's when`, () => {
      const decision = { id: "route", uses: "decision", needs: ["review", "draft"], with: { cases: [{ when: "{{ steps.review.output == 'aprove' }}", to: "draft2" }], default: "end" } };
      const draft2 = { id: "draft2", uses: "ai.generate", with: { model: "m", prompt: "x {{ steps.summarize.output.severity != 'hihg' }} {{ steps.summarize.output.severity === 'low' }}" }, needs: ["summarize"], output: { mode: "text" } };
      const { seen, diagnostics } = check(workflow([decision, draft2]), format);
      assert.deepEqual(seen, ["lwir.impossible_comparison aprove", "lwir.impossible_comparison hihg"]);
      assert.match(String(diagnostics[0].message), /steps\.review\.output is one of "approve", "reject", so == "aprove" can never be true\. Did you mean "approve"\?/);
      assert.match(String(diagnostics[1].message), /!= "hihg" is always true/);
    });
  }

  test("loose equality with another type, null, and undecided values are left alone", () => {
    const { seen } = check(workflow([reader("{{ steps.review.output == 1 }} {{ steps.review.output == null }} {{ steps.summarize.output.summary == 'x' }} {{ steps.review.output === 1 }}")]), "json");
    // `=== 1` can never hold for a string value; `== 1` converts, so it is not decided
    assert.deepEqual(seen, ["lwir.impossible_comparison 1"]);
  });
});

describe("lwir.items_not_array", () => {
  for (const format of FORMATS) {
    test(`${format}: items resolving to a string, a text output; not to an array or an undecided value`, () => {
      const body = [{ id: "b", uses: "ai.generate", with: { model: "m", prompt: "p" }, output: { mode: "text" } }];
      const bad = parallel("{{ input.ticket }}", body);
      const bad2 = { ...parallel("{{ steps.draft.output }}", body), id: "each2", needs: ["each", "draft"] };
      const good = { ...parallel("{{ input.candidates }}", body), id: "each3", needs: ["each2"] };
      const { seen, diagnostics } = check(workflow([bad, bad2, good]), format);
      assert.deepEqual(seen, ["lwir.items_not_array input.ticket", "lwir.items_not_array steps.draft.output"]);
      assert.match(String(diagnostics[0].message), /input\.ticket is declared as a string/);
    });
  }
});

describe("never a finding; levels; the CLI", () => {
  test("valid stays true, the WorkflowVersion is there, lwir.lint.rules turns it off or up", () => {
    const source = JSON.stringify(workflow([reader("{{ steps.summarize.output.sumary }}")]));
    const analysis = analyzeText(source, "json");
    assert.equal(analysis.valid, true);
    assert.ok(analysis.workflowVersion);
    const all = toDiagnostics(analysis);
    assert.deepEqual(applyRuleLevels(all, { "lwir.unknown_property": "off" }).map((d) => d.code), []);
    assert.deepEqual(applyRuleLevels(all, { "lwir.unknown_property": "error" }).map((d) => d.severity), [1]);
  });

  test("lwir validate reports it as a warning of a valid file, and --rule turns it off", () => {
    const dir = mkdtempSync(join(tmpdir(), "lwir-types-"));
    try {
      const file = join(dir, "w.lwir.json");
      writeFileSync(file, JSON.stringify(workflow([reader("{{ steps.summarize.output.sumary }}")])));
      const report = checkFile(file);
      assert.ok(!isFailure(report));
      assert.equal(report.valid, true);
      assert.deepEqual(report.findings, []);
      assert.deepEqual((report.notices ?? []).map((n) => `${n.code} ${n.severity} ${n.path}`), ["lwir.unknown_property warning $.steps[3].with.prompt"]);
      const off = checkFile(file, { rules: { "lwir.unknown_property": "off" } });
      assert.ok(!isFailure(off));
      assert.deepEqual(off.notices, []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The editor's quick fixes for one diagnostic (as the light bulb asks: its range, that diagnostic). */
function codeActionsFor(analysis: ReturnType<typeof analyzeText>, diagnostic: Diagnostic) {
  return provideCodeActions(analysis, { textDocument: { uri: "file:///w" }, range: diagnostic.range, context: { diagnostics: [diagnostic], only: ["quickfix"] } });
}

describe('quick fix: Change "WORD" to "NAME"', () => {
  for (const format of FORMATS) {
    test(`${format}: the property name, preferred, and the document then has no warning`, () => {
      const { analysis, source, diagnostics } = check(workflow([reader("Summary: {{ steps.summarize.output.sumary }}")]), format);
      const actions = codeActionsFor(analysis, diagnostics[0]);
      assert.deepEqual(actions.map((a) => [a.title, a.isPreferred, a.kind]), [['Change "sumary" to "summary"', true, "quickfix"]]);
      const edits = actions[0].edit!.changes!["file:///w"];
      const fixed = applyEdits(source, edits.map((e) => ({ start: analysis.document.offsetAt(e.range.start), end: analysis.document.offsetAt(e.range.end), newText: e.newText })));
      assert.ok(fixed.includes("{{ steps.summarize.output.summary }}"));
      const after = analyzeText(fixed, format);
      assert.equal(after.valid, true);
      assert.deepEqual(toDiagnostics(after).filter((d) => TYPE_CODES.includes(String(d.code))), []);
    });

    test(`${format}: a compared literal close to a choice value, through provideCodeActions`, () => {
      const { analysis, source, diagnostics } = check(workflow([reader("{{ steps.review.output == 'aprove' }}")]), format);
      const actions = provideCodeActions(analysis, { textDocument: { uri: "file:///w" }, range: diagnostics[0].range, context: { diagnostics, only: ["quickfix"] } });
      assert.deepEqual(actions.map((a) => a.title), ['Change "aprove" to "approve"']);
      const e = actions[0].edit!.changes!["file:///w"][0];
      const fixed = applyEdits(source, [{ start: analysis.document.offsetAt(e.range.start), end: analysis.document.offsetAt(e.range.end), newText: e.newText }]);
      assert.ok(fixed.includes("{{ steps.review.output == 'approve' }}"));
    });
  }

  test("as offset edits for lwir validate --fix: applied unasked only when exactly one declared name is close", () => {
    const one = check(workflow([reader("{{ steps.summarize.output.sumary }}")]), "json");
    const fixes = didYouMeanPropertyFixes(one.analysis, one.diagnostics[0].data as LwirDiagnosticData);
    assert.deepEqual(fixes.map((f) => [f.title, f.preferred, f.auto]), [['Change "sumary" to "summary"', true, true]]);
    const input = { type: "object", properties: { ticket: { type: "string" }, tag: { type: "string" }, tab: { type: "string" } } };
    const two = check(workflow([reader("{{ input.tac }}")], input), "json");
    const choices = didYouMeanPropertyFixes(two.analysis, two.diagnostics[0].data as LwirDiagnosticData);
    assert.deepEqual(choices.map((f) => [f.title, f.preferred, f.auto]), [['Change "tac" to "tag"', true, undefined], ['Change "tac" to "tab"', undefined, undefined]]);
  });

  test("nothing for a name with no close declared one, or for a stale diagnostic", () => {
    const { analysis, diagnostics } = check(workflow([reader("{{ steps.summarize.output.zzzzzzzz }}")]), "json");
    assert.deepEqual(codeActionsFor(analysis, diagnostics[0]), []);
    const typo = check(workflow([reader("{{ steps.summarize.output.sumary }}")]), "json");
    const other = check(workflow([reader("{{ steps.summarize.output.summary }}")]), "json");
    assert.deepEqual(codeActionsFor(other.analysis, typo.diagnostics[0]), []);
  });
});

// ---- hover and completion from the declared schemas ----------------------------------------------------

/** A document with a `|` marking the cursor (JSON or YAML), its analysis and the cursor's position. */
function marked(doc: Json, format: "json" | "yaml") {
  const source = text(doc, format);
  const offset = source.indexOf("|");
  const clean = source.slice(0, offset) + source.slice(offset + 1);
  const analysis = analyzeText(clean, format);
  return { analysis, position: analysis.document.positionAt(offset) };
}

function hoverAt(doc: Json, format: "json" | "yaml"): string {
  const { analysis, position } = marked(doc, format);
  const h = provideHover(analysis, position);
  assert.ok(h, "a hover");
  return (h.contents as { value: string }).value;
}

function completionAt(doc: Json, format: "json" | "yaml") {
  const { analysis, position } = marked(doc, format);
  return provideCompletion(analysis, undefined, position, {}).items;
}

describe("hover on a property path: declared type, description, values", () => {
  for (const format of FORMATS) {
    test(`${format}: through output, lastOutput, allVisits[i] and item`, () => {
      const desc = hoverAt(workflow([reader("{{ steps.summarize.output.summ|ary }}")]), format);
      assert.match(desc, /\*\*`summary`\*\*: `string`/);
      assert.match(desc, /One or two sentences\./);
      const severity = hoverAt(workflow([reader("{{ steps.summarize.lastOutput.sev|erity }}")]), format);
      assert.match(severity, /Values: `"low"`, `"medium"`, `"high"`/);
      const visit = hoverAt(workflow([reader("{{ steps.summarize.allVisits[0].details.ow|ner }}")]), format);
      assert.match(visit, /\*\*`owner`\*\*: `string`/);
      const body = [{ id: "score", uses: "ai.generate", with: { model: "m", prompt: "Score {{ item.na|me }}" }, output: { mode: "text" } }];
      assert.match(hoverAt(workflow([parallel("{{ input.candidates }}", body)]), format), /\*\*`name`\*\*: `string`[\s\S]*items of the parallel step/);
    });

    test(`${format}: in a decision's when, the choice's values`, () => {
      const decision = { id: "route", uses: "decision", needs: ["summarize", "review", "draft"], with: { cases: [{ when: "{{ steps.summarize.output.seve|rity == 'high' }}", to: "end" }], default: "end" } };
      assert.match(hoverAt(workflow([decision]), format), /Values: `"low"`, `"medium"`, `"high"`/);
    });
  }
});

describe("completion of property paths at every depth", () => {
  for (const format of FORMATS) {
    test(`${format}: output., nested objects, array elements, input. and item., with types and descriptions`, () => {
      const top = completionAt(workflow([reader("{{ steps.summarize.output.| }}")]), format);
      assert.deepEqual(top.map((i) => i.label), ["summary", "severity", "details"]);
      assert.equal(top[0].detail, "string (required)");
      assert.match(JSON.stringify(top[0].documentation), /One or two sentences/);
      assert.equal(top[1].detail, '"low" | "medium" | "high" (required)');
      assert.deepEqual(completionAt(workflow([reader("{{ steps.summarize.lastOutput.details.| }}")]), format).map((i) => `${i.label}: ${i.detail}`), ["owner: string", "tags: array of object"]);
      assert.deepEqual(completionAt(workflow([reader("{{ steps.summarize.output.details.tags[0].| }}")]), format).map((i) => i.label), ["label"]);
      assert.deepEqual(completionAt(workflow([reader("{{ input.| }}")]), format).map((i) => i.label), ["ticket", "candidates"]);
      const body = [{ id: "score", uses: "ai.generate", with: { model: "m", prompt: "Score {{ item.| }}" }, output: { mode: "text" } }];
      assert.deepEqual(completionAt(workflow([parallel("{{ input.candidates }}", body)]), format).map((i) => i.label), ["id", "name"]);
    });

    test(`${format}: a record's value schema and a discriminated union's branches`, () => {
      const input = {
        type: "object",
        properties: {
          ticket: { type: "string" },
          byLang: { type: "object", additionalProperties: { type: "object", properties: { text: { type: "string" } } } },
          shape: { oneOf: [
            { type: "object", required: ["kind"], properties: { kind: { const: "a" }, x: { type: "string" } } },
            { type: "object", required: ["kind"], properties: { kind: { const: "b" }, y: { type: "number" } } },
          ] },
        },
      };
      assert.deepEqual(completionAt(workflow([reader("{{ input.byLang.en.| }}")], input), format).map((i) => i.label), ["text"]);
      assert.deepEqual(completionAt(workflow([reader("{{ input.shape.| }}")], input), format).map((i) => `${i.label}: ${i.detail}`), ['kind: "a" | "b" (required)', "x: string", "y: number"]);
    });
  }
});

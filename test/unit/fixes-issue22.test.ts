// Issue 22, "a fix for every mistake that has one": the choice values snippet, "Use steps.X.output",
// "Declare "NAME" in input.schema", the missing JSON comma, "Remove needs entry" taking its key with the
// last entry, one place for a new needs in fixes and completion, and "Fix all in file". Each fix in JSON
// and YAML: the result parses, the finding (or notice) is gone, nothing else is found that was not
// before, and the lines the fix does not edit are byte-identical.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify as toYaml } from "yaml";
import type { CodeAction, Diagnostic, TextEdit } from "vscode-languageserver-types";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import { toDiagnostics } from "../../server/src/service/diagnostics";
import { provideCodeActions, snippetRelativeToLine } from "../../server/src/service/codeActions";
import { autofixText } from "../../server/src/service/autofix";
import { FIX_ALL_IN_FILE_TITLE } from "../../server/src/service/fixAllInFile";
import { guessInputType } from "../../server/src/service/declareInputFix";
import { provideCompletion } from "../../server/src/service/completion";
import { addNeedsEntries } from "../../server/src/service/edits";
import { FIX_ALL_KIND } from "../../server/src/protocol";
import { type Json, aiStep, baseWorkflow, decisionStep, parallelStep, toolStep, withSteps } from "./lwir-fixtures";

type Format = "json" | "yaml";
const FORMATS: Format[] = ["json", "yaml"];
const URI = "file:///w/fix.lwir";

function render(doc: Json, format: Format): string {
  return format === "json" ? JSON.stringify(doc, null, 2) + "\n" : toYaml(doc);
}

function reader(id: string, prompt: string, extra: Json = {}): Json {
  return aiStep(id, { with: { model: "model-a", prompt }, ...extra });
}

/** Every problem the editor shows (findings, notices, syntax errors) as "code path" keys. */
function problems(analysis: Analysis): string[] {
  return toDiagnostics(analysis).map((d) => `${d.code} ${(d.data as { path: string }).path}`);
}

function actionsAt(analysis: Analysis, diagnostic: Diagnostic, options: { snippetEdits?: boolean } = {}): CodeAction[] {
  return provideCodeActions(analysis, { textDocument: { uri: URI }, range: diagnostic.range, context: { diagnostics: [diagnostic] } }, options);
}

function editsOf(action: CodeAction): TextEdit[] {
  const plain = action.edit?.changes?.[URI];
  if (plain) return plain;
  const change = action.edit?.documentChanges?.[0] as { edits: Array<TextEdit & { snippet?: { value: string } }> } | undefined;
  assert.ok(change, `${action.title}: edits`);
  return change.edits;
}

function apply(text: string, analysis: Analysis, edits: TextEdit[]): string {
  const doc = analysis.document;
  const offs = edits.map((e) => ({ start: doc.offsetAt(e.range.start), end: doc.offsetAt(e.range.end), text: e.newText })).sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of offs) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The lines before the first edited line and after the last one are byte-identical. */
function assertOnlyEditedLines(before: string, after: string, edits: TextEdit[]): void {
  const a = before.split(/(?<=\n)/);
  const b = after.split(/(?<=\n)/);
  const first = Math.min(...edits.map((e) => e.range.start.line));
  const last = Math.max(...edits.map((e) => e.range.end.line));
  assert.deepEqual(b.slice(0, first), a.slice(0, first), "lines before the edit");
  const tail = a.length - last - 1;
  assert.deepEqual(tail > 0 ? b.slice(b.length - tail) : [], tail > 0 ? a.slice(a.length - tail) : [], "lines after the edit");
}

/**
 * The one action titled `title` for the diagnostic with `code`: applied, the text parses, that problem is
 * gone (one fewer), no problem is new, and only the edited lines changed. Returns the text and its analysis.
 */
function checkFix(text: string, format: Format, code: string, title: string, options: { preferred?: boolean } = {}): { text: string; after: Analysis; action: CodeAction } {
  const analysis = analyzeText(text, format);
  const diagnostic = toDiagnostics(analysis, { uri: URI }).find((d) => d.code === code);
  assert.ok(diagnostic, `a ${code} diagnostic among ${problems(analysis).join(", ")}`);
  const actions = actionsAt(analysis, diagnostic);
  const matching = actions.filter((a) => a.title === title);
  assert.equal(matching.length, 1, `one "${title}" among ${actions.map((a) => a.title).join(" | ")}`);
  const action = matching[0];
  if (options.preferred !== undefined) assert.equal(action.isPreferred === true, options.preferred, "isPreferred");
  const edits = editsOf(action);
  const out = apply(text, analysis, edits);
  const after = analyzeText(out, format);
  assert.deepEqual(after.document.parseErrors, [], `the fixed text parses:\n${out}`);
  const was = problems(analysis);
  const now = problems(after);
  const count = (list: string[], k: string) => list.filter((x) => x === k).length;
  const target = `${diagnostic.code} ${(diagnostic.data as { path: string }).path}`;
  assert.ok(count(now, target) < count(was, target), `${target} is gone:\n${out}`);
  for (const k of new Set(now)) assert.ok(count(now, k) <= count(was, k), `no new ${k}:\n${out}`);
  assertOnlyEditedLines(text, out, edits);
  return { text: out, after, action };
}

// ---- output mode choice without values ---------------------------------------------------------------

function choiceWithoutValues(compared: boolean): Json {
  return withSteps([
    reader("classify", "Classify {{ input.topic }}", { output: { mode: "choice" } }),
    decisionStep("route", {
      cases: compared ? [{ when: "{{ steps.classify.output == 'bug' }}", to: "fix" }, { when: "{{ steps.classify.output == 'feature' }}", to: "plan" }] : [{ when: "{{ input.topic == 'x' }}", to: "fix" }],
      default: "plan",
    }, { needs: ["classify"] }),
    reader("fix", "Fix it"),
    reader("plan", "Plan it"),
  ]);
}

describe("output.missing_values: Add values to the output of \"classify\"", () => {
  for (const format of FORMATS) {
    test(`${format}: the values the workflow compares the output with, after mode; valid`, () => {
      const { text, after, action } = checkFix(render(choiceWithoutValues(true), format), format, "output.missing_values", 'Add values to the output of "classify"', { preferred: true });
      assert.deepEqual((after.document.value as Json).steps[0].output, { mode: "choice", values: ["bug", "feature"] });
      assert.ok(after.valid, text);
      assert.ok(action.edit?.changes, "a plain edit for a client without snippet edits");
    });

    test(`${format}: nothing compared: one placeholder value; a snippet where the client takes one`, () => {
      const source = render(choiceWithoutValues(false), format);
      const { after } = checkFix(source, format, "output.missing_values", 'Add values to the output of "classify"');
      assert.deepEqual((after.document.value as Json).steps[0].output.values, ["value"]);
      const analysis = analyzeText(source, format);
      const diagnostic = toDiagnostics(analysis, { uri: URI }).find((d) => d.code === "output.missing_values")!;
      const [action] = actionsAt(analysis, diagnostic, { snippetEdits: true });
      const edit = (action.edit!.documentChanges![0] as unknown as { textDocument: { uri: string }; edits: Array<{ snippet: { kind: string; value: string } }> });
      assert.equal(edit.textDocument.uri, URI);
      assert.equal(edit.edits[0].snippet.kind, "snippet");
      assert.match(edit.edits[0].snippet.value, format === "json" ? /"values": \[\s*"\$\{1:value\}"\s*\]/ : /values: \[ ?\$\{1:value\} ?\]|values:\n\s+- \$\{1:value\}/);
    });

    test(`${format}: values written as something else than an array are replaced`, () => {
      const doc = choiceWithoutValues(true);
      doc.steps[0].output.values = "bug, feature";
      const { after } = checkFix(render(doc, format), format, "output.missing_values", 'Add values to the output of "classify"');
      assert.deepEqual((after.document.value as Json).steps[0].output.values, ["bug", "feature"]);
    });
  }

  test("a choice needs a person: lwir validate --fix leaves it", () => {
    const text = render(choiceWithoutValues(true), "yaml");
    assert.equal(autofixText(text, "yaml", { kinds: new Set(["problem", "lint"]) }).text, text);
  });
});

// ---- a property read from a text or choice output ----------------------------------------------------

describe("lwir.property_of_scalar_output: Use steps.classify.output", () => {
  const doc = (prompt: string) => withSteps([
    reader("classify", "Classify {{ input.topic }}", { output: { mode: "choice", values: ["bug", "feature"] } }),
    reader("answer", prompt, { needs: ["classify"] }),
  ]);
  for (const format of FORMATS) {
    test(`${format}: .label goes, the rest of the template stays`, () => {
      const { after } = checkFix(render(doc("Label: {{ steps.classify.output.label }}!"), format), format, "lwir.property_of_scalar_output", "Use steps.classify.output", { preferred: true });
      assert.equal((after.document.value as Json).steps[1].with.prompt, "Label: {{ steps.classify.output }}!");
    });

    test(`${format}: a longer path (.label.text) and a quoted index go whole`, () => {
      const a = checkFix(render(doc("{{ steps.classify.output.label.text }}"), format), format, "lwir.property_of_scalar_output", "Use steps.classify.output");
      assert.equal((a.after.document.value as Json).steps[1].with.prompt, "{{ steps.classify.output }}");
      const b = checkFix(render(doc(`{{ steps.classify.lastOutput["label"] }} and more`), format), format, "lwir.property_of_scalar_output", "Use steps.classify.lastOutput");
      assert.equal((b.after.document.value as Json).steps[1].with.prompt, "{{ steps.classify.lastOutput }} and more");
    });
  }

  test("one fix, nothing to choose: applied by --fix-type lint, not by default", () => {
    const text = render(doc("{{ steps.classify.output.label }}"), "yaml");
    assert.equal(autofixText(text, "yaml").text, text);
    assert.match(autofixText(text, "yaml", { kinds: new Set(["lint"]) }).text, /prompt: "?\{\{ steps.classify.output \}\}"?/);
  });
});

// ---- a property read from input that input.schema does not declare -----------------------------------

function fanOver(items: string): Json {
  const p = parallelStep("fan", [reader("one", "{{ item }}")]);
  p.with.items = items;
  return p;
}

function inputDoc(prompt: string, schema: Json = { type: "object", properties: { topic: { type: "string" } } }, extra: Json[] = []): Json {
  const d = withSteps([reader("answer", prompt), ...extra]);
  d.input.schema = schema;
  return d;
}

describe('lwir.unknown_property: Declare "ticket" in input.schema', () => {
  for (const format of FORMATS) {
    test(`${format}: a string by default; not required when the schema has optional properties`, () => {
      const { after } = checkFix(render(inputDoc("Answer {{ input.ticket }}"), format), format, "lwir.unknown_property", 'Declare "ticket" in input.schema', { preferred: true });
      const schema = (after.document.value as Json).input.schema;
      assert.deepEqual(schema.properties.ticket, { type: "string" });
      assert.equal(schema.required, undefined);
    });

    test(`${format}: required too when the schema requires every property it declares`, () => {
      const schema = { type: "object", required: ["topic"], properties: { topic: { type: "string" } } };
      const { after } = checkFix(render(inputDoc("{{ input.priority > 2 }}", schema), format), format, "lwir.unknown_property", 'Declare "priority" in input.schema');
      const s = (after.document.value as Json).input.schema;
      assert.deepEqual(s.properties.priority, { type: "number" });
      assert.deepEqual(s.required, ["topic", "priority"]);
    });

    test(`${format}: beside "did you mean", second and not preferred`, () => {
      const schema = { type: "object", properties: { ticket: { type: "string" } } };
      const { action } = checkFix(render(inputDoc("{{ input.tickets }}", schema), format), format, "lwir.unknown_property", 'Declare "tickets" in input.schema', { preferred: false });
      assert.ok(action);
    });
  }

  test("the type from how the workflow uses it", () => {
    const cases: Array<[Json[], string]> = [
      [[reader("a", "{{ input.ticket }}")], "string"],
      [[reader("a", "{{ input.ticket == 3 }}")], "number"],
      [[reader("a", "{{ input.ticket >= input.topic }}")], "number"],
      [[reader("a", "{{ input.ticket == true }}")], "boolean"],
      [[reader("a", "{{ len(input.ticket) }}")], "string"],
      [[reader("a", "{{ input.ticket.id }}")], "object"],
      [[reader("a", "{{ input.ticket[0] }}")], "array"],
      [[reader("a", "{{ len(input.ticket) }}"), fanOver("{{ input.ticket }}")], "array"],
      [[decisionStep("d", { cases: [{ when: "{{ input.ticket }}", to: "a" }], default: "a" }), reader("a", "x")], "boolean"],
      [[decisionStep("d", { cases: [{ when: "{{ input.ticket && input.topic == 'x' }}", to: "a" }], default: "a" }), reader("a", "x")], "boolean"],
    ];
    for (const [steps, type] of cases) {
      const d = withSteps(steps);
      d.input.schema = { type: "object", properties: { topic: { type: "string" } } };
      assert.equal(guessInputType(analyzeText(JSON.stringify(d), "json"), "ticket"), type, JSON.stringify(steps));
    }
  });

  test("a new input changes the contract: never applied unasked", () => {
    const text = render(inputDoc("Answer {{ input.ticket }}"), "json");
    assert.equal(autofixText(text, "json", { kinds: new Set(["problem", "lint"]) }).text, text);
  });
});

// ---- a missing comma in JSON -----------------------------------------------------------------------

describe("JSON: Insert the missing comma", () => {
  const valid = render(baseWorkflow(), "json");
  const broken = valid.replace('"kind": "Workflow",', '"kind": "Workflow"').replace('"id": "write",', '"id": "write"');

  test("each missing comma, as a quick fix at its error: the text parses once both are in", () => {
    const analysis = analyzeText(broken, "json");
    // (the parser reports the first syntax error: one at a time)
    assert.equal(analysis.document.parseErrors[0]?.code, "CommaExpected", JSON.stringify(analysis.document.parseErrors));
    let text = broken;
    for (let k = 0; k < 2; k++) {
      const a = analyzeText(text, "json");
      const error = a.document.parseErrors.find((p) => p.code === "CommaExpected")!;
      // VS Code's JSON support reports the error in our place: the request carries its diagnostic, not ours.
      const theirs: Diagnostic = { range: error.range, message: "Expected comma", source: "json" };
      const actions = provideCodeActions(a, { textDocument: { uri: URI }, range: error.range, context: { diagnostics: [theirs] } });
      assert.deepEqual(actions.map((x) => [x.title, x.kind, x.isPreferred]), [["Insert the missing comma", "quickfix", true]]);
      assert.deepEqual(actions[0].diagnostics, [theirs]);
      const edits = editsOf(actions[0]);
      const next = apply(text, a, edits);
      assertOnlyEditedLines(text, next, edits);
      const left = analyzeText(next, "json").document.parseErrors;
      assert.ok(left.length < a.document.parseErrors.length || left[0].range.start.line > error.range.start.line, JSON.stringify(left));
      text = next;
    }
    assert.equal(text, valid);
  });

  test("lwir validate --fix inserts them (and then fixes the rest)", () => {
    const r = autofixText(broken, "json");
    assert.equal(r.text, valid);
    assert.deepEqual(r.titles, ["Insert the missing comma", "Insert the missing comma"]);
  });

  test("a comma that would not help is not offered", () => {
    // `"a" "b"` as a key pair is a missing colon, not a comma: jsonc-parser says ColonExpected; and a
    // token after a colon is no place for one.
    for (const text of ['{"apiVersion" "x"}', '{"a": , "b": 1}']) {
      const a = analyzeText(text, "json");
      const actions = provideCodeActions(a, { textDocument: { uri: URI }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: text.length } }, context: { diagnostics: [] } });
      assert.deepEqual(actions.filter((x) => /comma/.test(x.title)), [], text);
      assert.equal(autofixText(text, "json").text, text);
    }
  });
});

// ---- needs: the last entry goes with its key; the same place in fixes and completion -------------------

describe("needs", () => {
  for (const format of FORMATS) {
    test(`${format}: "Remove needs entry" of the only entry removes the key (the WorkflowVersion is that of a document written without it)`, () => {
      const doc = withSteps([reader("a", "{{ input.topic }}", { needs: ["b"] }), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]);
      const { text, after } = checkFix(render(doc, format), format, "lwir.invalid_cycle", 'Remove needs entry "b" from step "a"', { preferred: true });
      assert.equal("needs" in (after.document.value as Json).steps[0], false, text);
      const written = withSteps([reader("a", "{{ input.topic }}"), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]);
      assert.equal(after.workflowVersion?.id, analyzeText(render(written, format), format).workflowVersion?.id);
      // and lwir validate --fix makes the same edit (the only way out of the cycle needs no choice)
      assert.equal(autofixText(render(doc, format), format).text, text);
    });

    test(`${format}: a new needs goes after uses, the same place from the quick fix and from completion`, () => {
      // id, then uses: after uses; uses, then id: after id. Both from the quick fix and from accepting `steps.gather` in completion.
      for (const order of [["id", "uses"], ["uses", "id"]]) {
        const step: Json = {};
        for (const k of order) step[k] = k === "id" ? "write" : "ai.generate";
        Object.assign(step, { with: { model: "model-a", prompt: "{{ steps.gather.output }} x" }, output: { mode: "text" } });
        const doc = withSteps([toolStep("gather"), step]);
        const text = render(doc, format);
        const analysis = analyzeText(text, format);
        const fixEdit = addNeedsEntries(analysis.document, ["steps", 1], ["gather"])![0];
        const fixLine = analysis.document.positionAt(fixEdit.start).line;
        // completion: the cursor after `steps.` in the prompt, accepting `gather`
        const at = text.indexOf("steps.gather.output") + "steps.".length;
        const list = provideCompletion(analysis, analysis, analysis.document.positionAt(at));
        const item = (list?.items ?? []).find((i) => i.label === "gather");
        assert.ok(item?.additionalTextEdits?.length, `completion adds the needs entry (${order})`);
        const completionLine = item!.additionalTextEdits![0].range.start.line;
        assert.equal(completionLine, fixLine, `${order}: the fix and completion insert needs on the same line`);
        const lines = text.split("\n");
        const writeLine = lines.findIndex((l) => /write/.test(l));
        const anchorLine = lines.findIndex((l, n) => Math.abs(n - writeLine) <= 1 && new RegExp(`^\\s*(- )?"?${order[1]}"?:`).test(l));
        assert.equal(fixLine, anchorLine, `${order}: after ${order[1]}\n${text}`);
      }
    });
  }
});

// ---- Fix all in file -----------------------------------------------------------------------------------

describe("Fix all in file (source.fixAll.lwir)", () => {
  for (const format of FORMATS) {
    test(`${format}: every fix that needs no choice, as one edit; the choices left`, () => {
      const doc = withSteps([
        toolStep("gather"),
        reader("write", "{{ steps.gather.output }}"), // missing needs: one right fix
        reader("classify", "{{ input.topic }}", { needs: ["write"], output: { mode: "choice", values: ["a", "b"] } }),
        reader("label", "{{ steps.classify.output.label }}", { needs: ["classify"] }), // .label: one right fix (lint)
        reader("pick", "{{ input.topc }} {{ input.tpic }}", { needs: ["label"], output: { mode: "choice" } }), // values, a typo: choices
      ]);
      const text = render(doc, format);
      const analysis = analyzeText(text, format);
      const actions = provideCodeActions(analysis, { textDocument: { uri: URI }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: [FIX_ALL_KIND] } });
      assert.deepEqual(actions.map((a) => [a.kind, a.title]), [[FIX_ALL_KIND, FIX_ALL_IN_FILE_TITLE]]);
      const edits = editsOf(actions[0]);
      assert.equal(edits.length, 1, "one edit, one undo step");
      const out = apply(text, analysis, edits);
      assert.equal(out, autofixText(text, format, { kinds: new Set(["problem", "lint"]) }).text, "the same as lwir validate --fix --fix-type all");
      const left = problems(analyzeText(out, format)).map((k) => k.split(" ")[0]).sort();
      assert.deepEqual(left, ["lwir.unknown_property", "lwir.unknown_property", "output.missing_values"]);
      // a lint rule turned off is not fixed
      const off = provideCodeActions(analysis, { textDocument: { uri: URI }, range: edits[0].range, context: { diagnostics: [], only: [FIX_ALL_KIND] } },
        { rules: { "lwir.property_of_scalar_output": "off" } });
      assert.ok(apply(text, analysis, editsOf(off[0])).includes("output.label"));
    });
  }

  test("nothing to fix: no action", () => {
    const analysis = analyzeText(render(baseWorkflow(), "json"), "json");
    assert.deepEqual(provideCodeActions(analysis, { textDocument: { uri: URI }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: [FIX_ALL_KIND] } }), []);
  });
});

test("a snippet edit's lines after the first drop the indentation of the line it goes in (VS Code adds it again)", () => {
  const text = "steps:\n  - id: classify\n    output:\n      mode: choice\n";
  const at = text.indexOf("choice") + "choice".length;
  assert.equal(snippetRelativeToLine(text, at, "\n      values: [${1:value}]"), "\nvalues: [${1:value}]");
  // a line less indented than the insertion line keeps what it has; no indentation, nothing to drop
  assert.equal(snippetRelativeToLine(text, at, "\n  x\n      y"), "\n  x\ny");
  assert.equal(snippetRelativeToLine("a: 1\n", 4, "\n  b"), "\n  b");
});

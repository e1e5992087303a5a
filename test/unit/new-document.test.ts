// Starting a new document (issue #14, items 6 and 7): an empty document's notice and its "New workflow"
// fix, the same skeleton first in completion, where the editor puts missing top-level keys, the
// top-level snippets (block style in YAML, the final tab stop `$0` inside the structure) and the model
// and tool names the steps use offered in permissions. Each in JSON and in YAML; every snippet is
// accepted with its defaults and the result parsed and validated.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TextDocument } from "vscode-languageserver-textdocument";
import { DiagnosticSeverity, InsertTextFormat, type CompletionItem, type TextEdit } from "vscode-languageserver-types";
import { analyzeText, type Analysis } from "../../server/src/service/analysis";
import { provideCompletion } from "../../server/src/service/completion";
import { EMPTY_DOCUMENT, toDiagnostics } from "../../server/src/service/diagnostics";
import { NEW_WORKFLOW_TITLE, provideCodeActions } from "../../server/src/service/codeActions";
import { expandSnippet, withFinalStop } from "../../server/src/service/snippets";
import { checkFile, isFailure } from "../../server/src/cli/check";
import { LwirWorkspace } from "../../server/src/service/workspace";

type Format = "json" | "yaml";
const FORMATS: Format[] = ["json", "yaml"];
const CURSOR = "\u00a7"; // where the final tab stop leaves the cursor, in an expanded snippet

const work = mkdtempSync(join(tmpdir(), "lwir-new-document-"));
after(() => rmSync(work, { recursive: true, force: true }));

function findings(a: Analysis): string[] {
  return a.findings.map((f) => `${f.code} ${f.path}`);
}

test("JSON: `{` typed (a trigger character) offers nothing, so Enter breaks the line; asked for, New workflow comes first", () => {
  const text = "{}";
  const analysis = analyzeText(text, "json");
  const at = analysis.document.positionAt(1);
  assert.deepEqual(provideCompletion(analysis, undefined, at, { typed: true }).items.map((i) => i.label), []);
  assert.equal(provideCompletion(analysis, undefined, at).items[0]?.label, "New workflow");
  // YAML's trigger characters are not followed by Enter: it is offered there as typed
  const yaml = analyzeText("---\n", "yaml");
  assert.equal(provideCompletion(yaml, undefined, yaml.document.positionAt(4), { typed: true }).items[0]?.label, "New workflow");
});

/** Completion at the `|` of `marked`; `lastGood`: the text whose analysis stands in while the current one does not parse. */
function complete(marked: string, format: Format, lastGood?: string): { text: string; items: CompletionItem[]; item(label: string): CompletionItem } {
  const offset = marked.indexOf("|");
  assert.ok(offset >= 0 && marked.indexOf("|", offset + 1) === -1, "one cursor marker");
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  const analysis = analyzeText(text, format);
  const last = lastGood === undefined ? undefined : analyzeText(lastGood, format);
  const items = provideCompletion(analysis, last, analysis.document.positionAt(offset)).items;
  return {
    text, items,
    item(label: string) {
      const found = items.find((i) => i.label === label);
      assert.ok(found, `no ${label} among ${items.map((i) => i.label).join(", ")}`);
      return found;
    },
  };
}

/**
 * Accepts an item as an editor does with every default: the text after it, and where the final tab
 * stop leaves the cursor (the end of the inserted text when the snippet has none).
 */
function accept(text: string, item: CompletionItem): { text: string; cursor: number } {
  const edit = item.textEdit as TextEdit;
  assert.ok(edit && "range" in edit);
  assert.equal(edit.range.start.line, edit.range.end.line, "a one-line replace range");
  const doc = TextDocument.create("file:///x", "plaintext", 0, text);
  const start = doc.offsetAt(edit.range.start);
  const end = doc.offsetAt(edit.range.end);
  const marked = edit.newText.replace(/\$0(?!\d)/, CURSOR).replace(/\$\{0:/, `${CURSOR}\${0:`);
  let inserted = item.insertTextFormat === InsertTextFormat.Snippet ? expandSnippet(marked) : edit.newText;
  if (!inserted.includes(CURSOR)) inserted += CURSOR;
  assert.equal(inserted.indexOf(CURSOR), inserted.lastIndexOf(CURSOR), "one final tab stop");
  // the additional edits (the rest of a `{}`), none overlapping the main one, applied from the last
  const edits = [{ start, end, newText: inserted }, ...(item.additionalTextEdits ?? []).map((e) => ({ start: doc.offsetAt(e.range.start), end: doc.offsetAt(e.range.end), newText: e.newText }))]
    .sort((a, b) => b.start - a.start);
  let out = text;
  for (const [i, e] of edits.entries()) {
    assert.ok(i === 0 || e.end <= edits[i - 1].start, "the edits do not overlap");
    out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  }
  const cursor = out.indexOf(CURSOR);
  return { text: out.replace(CURSOR, ""), cursor };
}

/** The path the document layer gives for an offset. */
function pathAt(text: string, format: Format, offset: number): Array<string | number> {
  const at = analyzeText(text, format).document.pathAt(offset);
  assert.ok(at, `a path at ${offset}`);
  return at.segments;
}

/** A valid workflow with two ai.generate steps on two models, a tool.call step and a fixer, and the permissions named. */
function workflow(format: Format, permissions: string): string {
  if (format === "json") {
    return `{
  "apiVersion": "littleworkflow.dev/v0.1",
  "kind": "Workflow",
  "metadata": {"name": "w"},
  "input": {"schema": {"type": "object"}},
  "output": {"schema": {"type": "object"}},
  ${permissions},
  "steps": [
    {"id": "a", "uses": "ai.generate", "with": {"model": "fast", "prompt": "hi"}, "output": {"mode": "text"}},
    {"id": "b", "uses": "ai.generate", "needs": ["a"], "with": {"model": "fast", "prompt": "hi"}, "output": {"mode": "text"}},
    {"id": "c", "uses": "tool.call", "needs": ["b"], "with": {"tool": "search"}, "output": {"mode": "json"}},
    {"id": "d", "uses": "ai.generate", "needs": ["c"], "with": {"model": "smart", "prompt": "hi"}, "output": {"mode": "text"}}
  ]
}
`;
  }
  return `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata: {name: w}
input: {schema: {type: object}}
output: {schema: {type: object}}
${permissions}
steps:
  - {id: a, uses: ai.generate, with: {model: fast, prompt: hi}, output: {mode: text}}
  - {id: b, uses: ai.generate, needs: [a], with: {model: fast, prompt: hi}, output: {mode: text}}
  - {id: c, uses: tool.call, needs: [b], with: {tool: search}, output: {mode: json}}
  - {id: d, uses: ai.generate, needs: [c], with: {model: smart, prompt: hi}, output: {mode: text}}
`;
}

// ---------------------------------------------------------------------------------------------

describe("an empty document: one info notice and the New workflow fix", () => {
  const cases: Array<[Format, string]> = [
    ["json", ""], ["json", "  \n\n"], ["yaml", ""], ["yaml", "\n   \n"], ["yaml", "# a new workflow\n\n"],
    // what an editor leaves after the first keys: `{` auto-closed (Enter between), YAML's `---`
    ["json", "{}"], ["json", "{\n  \n}"], ["json", "// notes\n{ /* soon */ }\n"], ["yaml", "---\n"], ["yaml", "# a new workflow\n---\n\n"], ["yaml", "{}\n"],
  ];
  for (const [format, text] of cases) {
    test(`${format} ${JSON.stringify(text)}`, () => {
      const analysis = analyzeText(text, format);
      const diagnostics = toDiagnostics(analysis);
      assert.deepEqual(diagnostics.map((d) => [d.code, d.severity]), [[EMPTY_DOCUMENT, DiagnosticSeverity.Information]]);
      assert.match(String(diagnostics[0].message), /empty/);
      const actions = provideCodeActions(analysis, {
        textDocument: { uri: "file:///new" }, range: diagnostics[0].range, context: { diagnostics, only: ["quickfix"] },
      });
      assert.deepEqual(actions.map((a) => [a.title, a.isPreferred]), [[NEW_WORKFLOW_TITLE, true]]);
      assert.deepEqual(actions[0].diagnostics?.map((d) => d.code), [EMPTY_DOCUMENT]);
      const [edit] = actions[0].edit!.changes!["file:///new"];
      const doc = TextDocument.create("file:///new", "plaintext", 0, text);
      const fixed = TextDocument.applyEdits(doc, [edit]);
      const after = analyzeText(fixed, format);
      assert.deepEqual(after.document.parseErrors, []);
      assert.deepEqual(findings(after), [], fixed);
      assert.deepEqual(toDiagnostics(after), []);
      // YAML: block style; JSON: indented by two spaces
      if (format === "yaml") {
        assert.match(fixed, /^permissions:\n {2}models:\n {4}- model\nsteps:\n {2}- id: generate\n/m);
        assert.match(fixed, /^metadata:\n {2}name: workflow\n {2}version: "0\.1\.0"\n {2}description: /m);
        if (text.startsWith("#")) assert.ok(fixed.startsWith("# a new workflow\n"), "comments are kept");
        if (text.includes("---")) assert.ok(/^(# a new workflow\n)?---\napiVersion: /.test(fixed), `--- is kept:\n${fixed}`);
      } else {
        assert.deepEqual(JSON.parse(fixed).metadata, { name: "workflow", version: "0.1.0", description: "What this workflow does" });
        assert.ok(fixed.startsWith('{\n  "apiVersion": "littleworkflow.dev/v0.1",\n'));
      }
    });
  }

  test("a document with anything in it is not empty", () => {
    for (const [format, text] of [["yaml", "--- a\n"], ["yaml", "null\n"], ["yaml", "a: 1\n"], ["yaml", "{}\n{}\n"], ["yaml", "{a: 1}\n"], ["json", "{}{}"], ["json", "{ \"a\": 1 }"], ["json", "[]"], ["json", "null"]] as Array<[Format, string]>) {
      assert.ok(!toDiagnostics(analyzeText(text, format)).some((d) => d.code === EMPTY_DOCUMENT), `${format} ${text}`);
    }
  });

  test("the CLI keeps the runtime's report: schema.invalid at $ for an empty YAML file, a parse error for empty JSON", () => {
    const yamlFile = join(work, "empty.lwir.yaml");
    writeFileSync(yamlFile, "");
    const y = checkFile(yamlFile);
    assert.ok(!isFailure(y));
    assert.deepEqual(y.findings.map((f) => `${f.code} ${f.path}`), ["schema.invalid $"]);
    assert.equal(y.valid, false);
    const jsonFile = join(work, "empty.lwir.json");
    writeFileSync(jsonFile, "\n");
    const j = checkFile(jsonFile);
    assert.ok(!isFailure(j));
    assert.ok(j.parseErrors.length > 0);
    assert.equal(j.valid, false);
    // and the analysis the editor starts from still holds the finding: only toDiagnostics replaces it
    assert.deepEqual(findings(analyzeText("", "yaml")), ["schema.invalid $"]);
  });
});

describe("completion in an empty document: New workflow first", () => {
  for (const format of FORMATS) {
    for (const marked of ["|", "\n\n|", "   |", ...(format === "json" ? ["{|}", "{\n  |\n}\n", "// notes\n{\n|}"] : ["---\n|", "{|}", "---\n|\n{}\n"])]) {
      test(`${format} ${JSON.stringify(marked)}`, () => {
        const r = complete(marked, format);
        assert.equal(r.items[0].label, "New workflow");
        const { text, cursor } = accept(r.text, r.items[0]);
        const a = analyzeText(text, format);
        assert.deepEqual(a.document.parseErrors, []);
        assert.deepEqual(findings(a), [], text);
        // the final tab stop: on the step's output mode, inside the step
        assert.deepEqual(pathAt(text, format, cursor + 1), ["steps", 0, "output", "mode"]);
        // every name the user replaces is a tab stop; the model's two places are one (mirrored)
        const snippet = (r.items[0].textEdit as TextEdit).newText;
        for (const n of [1, 2, 3, 4, 5, 6]) assert.ok(snippet.includes(`\${${n}`), `tab stop ${n}`);
        assert.equal(snippet.match(/\$\{4[}:]/g)?.length, 2, "model and with.model are one tab stop");
      });
    }
  }

  test("YAML: after comments the keys are still offered, New workflow first", () => {
    const r = complete("# notes\n|", "yaml");
    assert.deepEqual(r.items.map((i) => i.label).slice(0, 3), ["New workflow", "apiVersion", "kind"]);
    assert.equal(complete("# notes|", "yaml").items.some((i) => i.label === "New workflow"), false, "not after text on the line");
    assert.equal(complete("---|", "yaml").items.some((i) => i.label === "New workflow"), false, "not on the --- line");
  });

  test("the filter text starts with what the line holds before the cursor (the editor filters with it)", () => {
    assert.equal(complete("{|}", "json").items[0].filterText, "{New workflow");
    assert.equal(complete("{\n  |\n}", "json").items[0].filterText, "New workflow");
  });
});

describe("missing top-level keys: the editor's range vs the CLI's", () => {
  const texts: Record<Format, string> = {
    json: '{\n  "apiVersion": "littleworkflow.dev/v0.1",\n  "kind": "Workflow"\n}\n',
    yaml: "apiVersion: littleworkflow.dev/v0.1\nkind: Workflow\n\n",
  };
  for (const format of FORMATS) {
    test(format, () => {
      const text = texts[format];
      const analysis = analyzeText(text, format);
      const missing = ["$.metadata", "$.input", "$.output", "$.steps"];
      assert.deepEqual(findings(analysis).sort(), missing.map((p) => `schema.invalid ${p}`).sort());
      // the validator's ranges (what the CLI and the conformance runner report): the first line
      for (const f of analysis.findings) assert.equal(f.range.start.line, 0, f.path);
      // the editor's: the last character of the top-level mapping (JSON: its closing brace)
      const last = format === "json" ? { line: 3, character: 0 } : { line: 1, character: 13 };
      for (const d of toDiagnostics(analysis)) {
        assert.deepEqual(d.range, { start: last, end: { line: last.line, character: last.character + 1 } }, String((d.data as { path: string }).path));
      }
      const doc = TextDocument.create("file:///x", "plaintext", 0, text);
      assert.equal(text.slice(doc.offsetAt(last), doc.offsetAt(last) + 1), format === "json" ? "}" : "w");
    });

    test(`${format}: a missing apiVersion stays on the first line; a present but wrong key on its value`, () => {
      const text = format === "json" ? '{\n  "kind": "Workflow",\n  "metadata": 3\n}' : "kind: Workflow\nmetadata: 3\n";
      const analysis = analyzeText(text, format);
      const byPath = new Map(toDiagnostics(analysis).map((d) => [(d.data as { path: string }).path, d.range]));
      const cli = new Map(analysis.findings.map((f) => [f.path, f.range]));
      assert.equal(byPath.get("$.apiVersion")!.start.line, 0);
      assert.deepEqual(byPath.get("$.apiVersion"), cli.get("$.apiVersion"));
      assert.deepEqual(byPath.get("$.metadata"), cli.get("$.metadata"));
      assert.equal(byPath.get("$.metadata")!.start.line, format === "json" ? 2 : 1);
      assert.notDeepEqual(byPath.get("$.steps"), cli.get("$.steps"));
    });

    test(`${format}: the CLI reports the validator's range for a missing key`, () => {
      const file = join(work, `missing.lwir.${format}`);
      writeFileSync(file, texts[format]);
      const report = checkFile(file);
      assert.ok(!isFailure(report));
      const steps = report.findings.find((f) => f.path === "$.steps");
      assert.ok(steps && steps.range.start.line === 0, JSON.stringify(steps));
    });
  }
});

describe("top-level snippets: block style in YAML, the cursor left inside", () => {
  const partial: Record<Format, string> = {
    json: '{\n  "apiVersion": "littleworkflow.dev/v0.1",\n  "kind": "Workflow",\n  |\n}\n',
    yaml: "apiVersion: littleworkflow.dev/v0.1\nkind: Workflow\n|\n",
  };
  for (const format of FORMATS) {
    test(`${format}: metadata has name, version and description, each a tab stop`, () => {
      const r = complete(partial[format], format);
      const item = r.item("metadata");
      const snippet = (item.textEdit as TextEdit).newText;
      for (const n of [1, 2, 3]) assert.ok(snippet.includes(`\${${n}:`), snippet);
      const { text, cursor } = accept(r.text, item);
      const value = analyzeText(text, format).document.value as { metadata: unknown };
      assert.deepEqual(value.metadata, { name: "workflow", version: "0.1.0", description: "What this workflow does" });
      if (format === "yaml") assert.match(text, /^metadata:\n {2}name: workflow\n/m);
      // JSON: after the last member, before the closing brace (not after it)
      else assert.equal(text.slice(cursor, cursor + 4), "\n  }");
    });

    test(`${format}: permissions, a model as the first tab stop and the cursor left in tools`, () => {
      const r = complete(partial[format], format);
      const snippet = (r.item("permissions").textEdit as TextEdit).newText;
      assert.ok(snippet.includes("${1:model}"), snippet);
      const { text, cursor } = accept(r.text, r.item("permissions"));
      const value = analyzeText(text, format).document.value as { permissions: unknown };
      assert.deepEqual(value.permissions, { models: ["model"], tools: [] });
      if (format === "yaml") assert.match(text, /^permissions:\n {2}models:\n {4}- model\n {2}tools: \[\]$/m);
      assert.equal(text.slice(cursor - 1, cursor + 1), "[]", "between the brackets of tools");
      assert.deepEqual(pathAt(text, format, cursor).slice(0, 2), ["permissions", "tools"]);
    });

    test(`${format}: steps, a block list with an ai.generate step on the document's model`, () => {
      const withModels = format === "json"
        ? partial.json.replace("|", '"permissions": {"models": ["fast"]},\n  |')
        : partial.yaml.replace("|", "permissions:\n  models: [fast]\n|");
      // (JSON: the member being written leaves a trailing comma: the facts come from the text before it)
      const r = complete(withModels, format, withModels.replace(",\n  |", "").replace("|", ""));
      const { text, cursor } = accept(r.text, r.item("steps"));
      const a = analyzeText(text, format);
      const value = a.document.value as { steps: unknown };
      assert.deepEqual(value.steps, [{ id: "generate", uses: "ai.generate", with: { model: "fast", prompt: "Write the prompt" }, output: { mode: "text" } }]);
      assert.ok(!findings(a).some((f) => f.includes("$.steps")), findings(a).join(", "));
      if (format === "yaml") {
        assert.match(text, /^steps:\n {2}- id: generate\n {4}uses: ai\.generate\n/m);
        assert.doesNotMatch(text, /steps: \[/);
      } else {
        // inside the array, after the step: where a comma and the next step go
        assert.equal(text.slice(cursor - 1, cursor + 4), "}\n  ]", JSON.stringify(text.slice(cursor - 5, cursor + 12)));
      }
      assert.deepEqual(pathAt(text, format, cursor - 1).slice(0, 2), ["steps", 0]);
    });

    test(`${format}: input declares a first property, its name the first tab stop (never \`properties: {}\`, which turns the type checks off)`, () => {
      const r = complete(partial[format], format);
      const item = r.item("input");
      const { text } = accept(r.text, item);
      assert.deepEqual((analyzeText(text, format).document.value as { input: unknown }).input, { schema: { type: "object", properties: { topic: { type: "string" } } } });
      assert.match((item.textEdit as TextEdit).newText, format === "json" ? /"\$\{1:topic\}": \{"type": "\$\{2\|string,/ : /\$\{1:topic\}: \{type: \$\{2\|string,/);
    });
  }

  test("a new step in JSON ends inside the step; in YAML flow inside the braces", () => {
    for (const [format, marked] of [["json", '{\n  "steps": [\n    |\n  ]\n}'], ["yaml", "steps: [|]\n"]] as Array<[Format, string]>) {
      const r = complete(marked, format);
      const { text, cursor } = accept(r.text, r.item("ai.generate step"));
      assert.deepEqual(pathAt(text, format, cursor - 1).slice(0, 2), ["steps", 0], text);
      assert.equal(text[cursor], format === "json" ? "\n" : "}");
      // a tool call's args are a tab stop too (between the braces)
      const tool = (r.item("tool.call step").textEdit as TextEdit).newText;
      assert.match(tool, /"?args"?: \{\$\{3\}\}/, tool);
      assert.deepEqual((analyzeText(accept(r.text, r.item("tool.call step")).text, format).document.value as { steps: Array<{ with: unknown }> }).steps[0].with, { tool: "tool", args: {} });
    }
  });
});

describe("withFinalStop", () => {
  test("puts $0 inside a closing bracket, never inside a placeholder, never twice", () => {
    assert.equal(withFinalStop('{\n  "a": 1\n}'), '{\n  "a": 1$0\n}');
    assert.equal(withFinalStop('{"a": "${1:x}"}'), '{"a": "${1:x}"$0}');
    assert.equal(withFinalStop("[]"), "[$0]");
    assert.equal(withFinalStop("tools: []", false), "tools: [$0]");
    assert.equal(withFinalStop("output: {mode: text}", false), "output: {mode: text}", "YAML block: the end is inside");
    assert.equal(withFinalStop("- ${2:t}", false), "- ${2:t}");
    assert.equal(withFinalStop('"maxBranches": ${4:10}'), '"maxBranches": ${4:10}');
    assert.equal(withFinalStop("model: ${2|a,b|}", true), "model: ${2|a,b|}");
    assert.equal(withFinalStop("{a: [$0], b: []}"), "{a: [$0], b: []}");
    assert.equal(withFinalStop("{a: ${0:x}}"), "{a: ${0:x}}");
    assert.equal(withFinalStop("x: a \\}"), "x: a \\}", "an escaped brace is text");
  });
});

describe("permissions: the model and tool names the steps use", () => {
  for (const format of FORMATS) {
    test(`${format}: in models [] and tools [], with the steps using each`, () => {
      const models = complete(workflow(format, format === "json" ? '"permissions": {"models": [|], "tools": []}' : "permissions: {models: [|], tools: []}"), format);
      assert.deepEqual(models.items.map((i) => [i.label, i.detail]), [["fast", "used by step a, b"], ["smart", "used by step d"]]);
      const { text } = accept(models.text, models.item("fast"));
      assert.deepEqual(findings(analyzeText(text, format)).sort(), ["model.disallowed $.steps[3].with.model", "tool.disallowed $.steps[2].with.tool"]);
      const tools = complete(workflow(format, format === "json" ? '"permissions": {"models": ["fast", "smart"], "tools": [|]}' : "permissions: {models: [fast, smart], tools: [|]}"), format);
      assert.deepEqual(tools.items.map((i) => [i.label, i.detail]), [["search", "used by step c"]]);
      assert.deepEqual(findings(analyzeText(accept(tools.text, tools.items[0]).text, format)), []);
    });

    test(`${format}: names already listed are not offered again`, () => {
      const lastGood = workflow(format, format === "json" ? '"permissions": {"models": ["fast"], "tools": ["search"]}' : "permissions: {models: [fast], tools: [search]}");
      const r = complete(workflow(format, format === "json" ? '"permissions": {"models": ["fast", |], "tools": ["search"]}' : "permissions: {models: [fast, |], tools: [search]}"), format, lastGood);
      assert.deepEqual(r.items.map((i) => i.label), ["smart"]);
    });
  }

  test("yaml: a block list item, and a fixer's model", () => {
    const text = workflow("yaml", "permissions:\n  models:\n    - fast\n    |\n  tools: [search]");
    const r = complete(text, "yaml");
    assert.deepEqual(r.items.map((i) => i.label), ["smart"]);
    const accepted = accept(r.text, r.items[0]).text;
    assert.match(accepted, /^ {4}- smart$/m);
    assert.deepEqual(findings(analyzeText(accepted, "yaml")), []);
    const fixer = complete([
      "apiVersion: littleworkflow.dev/v0.1", "kind: Workflow", "metadata: {name: w}", "input: {schema: true}", "output: {schema: true}",
      "permissions: {models: [|]}",
      "steps:",
      "  - id: run",
      "    uses: code.run",
      "    with: {entrypoint: main.ts, files: {}, sandbox: {network: deny}}",
      "    onFailure: {fixer: {model: mender, maxAttempts: 2, system: fix it}}",
      "    output: {mode: json}",
    ].join("\n"), "yaml");
    assert.deepEqual(fixer.items.map((i) => [i.label, i.detail]), [["mender", "used by step run"]]);
  });

  test("the permissions key's snippet offers the used names as the choice", () => {
    const text = workflow("yaml", "|");
    const r = complete(text, "yaml");
    const snippet = (r.item("permissions").textEdit as TextEdit).newText;
    assert.ok(snippet.includes("${1|fast,smart|}") && snippet.includes("${2:search}"), snippet);
    assert.deepEqual(findings(analyzeText(accept(r.text, r.item("permissions")).text, "yaml")), ["model.disallowed $.steps[3].with.model"]);
  });
});

describe("permissions: names the other open documents use", () => {
  test("after this document's own, with the file named; closed documents and this one left out", () => {
    const docs = new Map<string, TextDocument>();
    const workspace = new LwirWorkspace({ get: (uri) => docs.get(uri) });
    const open = (uri: string, text: string) => {
      docs.set(uri, TextDocument.create(uri, "yaml", 1, text));
      workspace.getAnalysis(uri);
    };
    const here = "file:///w/here.lwir.yaml";
    open("file:///w/other%20flow.lwir.yaml", workflow("yaml", "permissions: {models: [fast, smart, large], tools: [search, fetch]}").replace("model: smart", "model: large").replace("tool: search", "tool: fetch"));
    open("file:///w/closed.lwir.yaml", workflow("yaml", "permissions: {models: [gone]}").replace("model: smart", "model: gone"));
    docs.delete("file:///w/closed.lwir.yaml");
    const marked = workflow("yaml", "permissions: {models: [|], tools: []}");
    const offset = marked.indexOf("|");
    const text = marked.slice(0, offset) + marked.slice(offset + 1);
    open(here, text);
    const analysis = workspace.getAnalysis(here)!;
    const list = provideCompletion(analysis, undefined, analysis.document.positionAt(offset), undefined, () => workspace.otherLastGood(here));
    assert.deepEqual(list.items.map((i) => [i.label, i.detail]), [
      ["fast", "used by step a, b"],
      ["smart", "used by step d"],
      ["large", "used by step d in other flow.lwir.yaml"],
    ]);
    assert.deepEqual(workspace.otherLastGood(here).map((o) => o.uri), ["file:///w/other%20flow.lwir.yaml"]);
  });
});

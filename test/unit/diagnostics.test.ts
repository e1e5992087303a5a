// service/diagnostics.ts on its own: analysis → LSP diagnostics, the `data` quick fixes read back,
// related information, and the YAML unquoted-template hint (catalog section 11).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify as toYaml } from "yaml";
import { analyzeText } from "../../server/src/service/analysis";
import {
  EMPTY_DOCUMENT, FILE_TOO_LARGE, INHERITED_FUNCTION_NAME, PARSE_CODE, PARSE_WARNING_CODE, SOURCE, YAML_UNQUOTED_TEMPLATE, applyRuleLevels, ownNotices, toDiagnostics, tooLargeDiagnostic,
  type LwirDiagnosticData,
} from "../../server/src/service/diagnostics";
import { JSON_BOM_MESSAGE } from "../../server/src/document/json";
import { decodeUtf8, documentText } from "../../server/src/document/decode";
import { CONFIGURABLE_RULES, levelOf, parseRuleOption, readRuleLevels } from "../../server/src/service/rules";
import { sourceOffsetOf } from "../../server/src/service/stringSource";
import { type Json, aiStep, decisionStep, toolStep, withSteps } from "./lwir-fixtures";

const URI = "file:///w/test.lwir.json";

function json(doc: Json): string {
  return JSON.stringify(doc, null, 2);
}

function diagnose(text: string, format: "json" | "yaml" = "json") {
  const analysis = analyzeText(text, format);
  return { analysis, diagnostics: toDiagnostics(analysis, { uri: URI }) };
}

const dataOf = (d: { data?: unknown }) => d.data as LwirDiagnosticData;

/** The text a range covers. */
function textAt(text: string, range: { start: { line: number; character: number }; end: { line: number; character: number } }): string {
  const lines = text.split("\n");
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return text.slice(offset(range.start), offset(range.end));
}

describe("toDiagnostics: one diagnostic per finding", () => {
  test("code, range, message, severity and source follow the finding", () => {
    const doc = withSteps([aiStep("a", { with: { model: "nope", prompt: "x" } })]);
    const { analysis, diagnostics } = diagnose(json(doc));
    assert.equal(analysis.findings.length, 1);
    assert.equal(diagnostics.length, 1);
    const [d] = diagnostics;
    const [f] = analysis.findings;
    assert.equal(d.code, "model.disallowed");
    assert.deepEqual(d.range, f.range);
    assert.equal(d.message, f.message);
    assert.equal(d.severity, 1);
    assert.equal(d.source, SOURCE);
    assert.deepEqual(dataOf(d), {
      code: "model.disallowed", path: "$.steps[0].with.model", segments: ["steps", 0, "with", "model"],
      step: { id: "a", segments: ["steps", 0] }, name: "nope", permission: "models",
    });
  });

  test("a valid document has none", () => {
    const { diagnostics } = diagnose(json(withSteps([aiStep("a")])));
    assert.deepEqual(diagnostics, []);
  });

  test("parse errors become errors with code parse, and nothing is validated", () => {
    const { analysis, diagnostics } = diagnose('{"apiVersion": "littleworkflow.dev/v0.1", "steps": [');
    assert.ok(analysis.document.parseErrors.length > 0);
    assert.equal(diagnostics.length, analysis.document.parseErrors.length);
    for (const [i, d] of diagnostics.entries()) {
      assert.equal(d.code, PARSE_CODE);
      assert.equal(d.severity, 1);
      assert.equal(d.source, SOURCE);
      assert.deepEqual(d.range, analysis.document.parseErrors[i].range);
      assert.equal(dataOf(d).code, PARSE_CODE);
    }
  });

  test("YAML parser warnings are warnings with a code of their own, never findings", () => {
    const text = toYaml(withSteps([aiStep("a")])).replace("kind: Workflow", "kind: !custom Workflow");
    const { analysis, diagnostics } = diagnose(text, "yaml");
    assert.ok(analysis.document.parseWarnings.length > 0, "the unknown tag is a parser warning");
    const warnings = diagnostics.filter((d) => d.code === PARSE_WARNING_CODE);
    assert.equal(warnings.length, analysis.document.parseWarnings.length);
    assert.ok(warnings.every((d) => d.severity === 2));
  });

  test("apiVersion and kind carry their only accepted value", () => {
    const doc = withSteps([aiStep("a")]);
    doc.apiVersion = "littleworkflow.dev/v9";
    doc.kind = "Flow";
    const { diagnostics } = diagnose(json(doc));
    const byPath = Object.fromEntries(diagnostics.map((d) => [dataOf(d).path, dataOf(d).expected]));
    assert.deepEqual(byPath, { "$.apiVersion": "littleworkflow.dev/v0.1", "$.kind": "Workflow" });
  });

  test("tool.disallowed names the tool and the tools allow-list", () => {
    const { diagnostics } = diagnose(json(withSteps([toolStep("t", { with: { tool: "rm" } })])));
    const d = diagnostics.find((x) => x.code === "tool.disallowed")!;
    assert.equal(dataOf(d).name, "rm");
    assert.equal(dataOf(d).permission, "tools");
  });

  test("without a uri there is no related information, the data stays", () => {
    const doc = withSteps([aiStep("a"), aiStep("a")]);
    const analysis = analyzeText(json(doc), "json");
    const [d] = toDiagnostics(analysis).filter((x) => x.code === "step.duplicate_id");
    assert.equal(d.relatedInformation, undefined);
    assert.deepEqual(dataOf(d).first, { id: "a", segments: ["steps", 0] });
  });

  test("the too-large notice", () => {
    const d = tooLargeDiagnostic(2000, 1000);
    assert.equal(d.code, FILE_TOO_LARGE);
    assert.deepEqual(d.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
    assert.match(d.message as string, /2000 bytes.*lwir\.maxFileSize.*1000/);
    assert.deepEqual({ size: dataOf(d).size, limit: dataOf(d).limit }, { size: 2000, limit: 1000 });
  });
});

describe("dependency findings carry the step to add and where the reference is", () => {
  test("step.undeclared_dependency: the referencing step, the missing id, the reference span", () => {
    const text = json(withSteps([
      toolStep("gather"),
      aiStep("write", { with: { model: "model-a", prompt: "Use {{ steps.gather.output.title }} now" } }),
    ]));
    const { diagnostics } = diagnose(text);
    const d = diagnostics.find((x) => x.code === "step.undeclared_dependency")!;
    const data = dataOf(d);
    assert.equal(data.targetStepId, "gather");
    assert.deepEqual(data.step, { id: "write", segments: ["steps", 1] });
    assert.deepEqual(data.target, { id: "gather", segments: ["steps", 0], external: false });
    assert.equal(data.reference?.stepId, "gather");
    assert.equal(data.reference?.property, "output");
    assert.equal(textAt(text, data.reference!.range!), "steps.gather.output");
    assert.equal(d.relatedInformation?.length, 1);
    assert.equal(d.relatedInformation![0].location.uri, URI);
    assert.equal(textAt(text, d.relatedInformation![0].location.range), '"gather"');
  });

  test("several references in one string are paired in order; declared ones are skipped", () => {
    const text = json(withSteps([
      toolStep("a"), toolStep("b"), toolStep("c"),
      aiStep("z", { needs: ["b"], with: { model: "model-a", prompt: "{{ steps.a.output }} {{ steps.b.output }} {{ steps['c'].output }}" } }),
    ]));
    const { diagnostics } = diagnose(text);
    const ids = diagnostics.filter((x) => x.code === "step.undeclared_dependency").map((x) => dataOf(x).targetStepId);
    assert.deepEqual(ids, ["a", "c"]);
  });

  test("a lastOutput read along a back edge is exempt and not paired", () => {
    // loop: draft → critique → gate → draft; `late` reads draft.lastOutput (no back edge) and critique.
    const steps = [
      aiStep("draft", { maxVisits: 3, with: { model: "model-a", prompt: "{{ steps.critique.lastOutput }} {{ steps.gate2.output }}" } }),
      aiStep("critique", { needs: ["draft"], maxVisits: 3 }),
      decisionStep("gate", { cases: [{ when: "{{ steps.critique.lastOutput == 'ok' }}", to: "end" }], default: "draft" }, { needs: ["critique"], maxVisits: 3 }),
      toolStep("gate2"),
    ];
    const { diagnostics } = diagnose(json(withSteps(steps)));
    const undeclared = diagnostics.filter((x) => x.code === "step.undeclared_dependency");
    assert.deepEqual(undeclared.map((x) => dataOf(x).targetStepId), ["gate2"]);
  });

  test("step.missing_dependency: the unknown id, from needs (valid-entry index, quirk 9.3) or from a reference", () => {
    const text = json(withSteps([
      toolStep("a"),
      aiStep("b", { needs: ["", "a", "ghost"], with: { model: "model-a", prompt: "{{ steps.phantom.output }}" } }),
    ]));
    const { diagnostics } = diagnose(text);
    const missing = diagnostics.filter((x) => x.code === "step.missing_dependency").map((x) => [dataOf(x).path, dataOf(x).targetStepId, dataOf(x).needsIndex]);
    // The path counts valid entries only; needsIndex is the entry's index in the array as written.
    assert.deepEqual(missing.sort(), [["$.steps[1].needs[1]", "ghost", 2], ["$.steps[1].with.prompt", "phantom", undefined]]);
  });

  test("output ambiguity: the exact `output` word, in JSON with escapes before it and in YAML", () => {
    const steps = [
      aiStep("draft", { maxVisits: 2 }),
      aiStep("use", { needs: ["draft"], with: { model: "model-a", prompt: 'Line\n"quoted" then {{ steps.draft.output }} and {{ steps.draft.lastOutput }}' } }),
    ];
    for (const [format, text] of [["json", json(withSteps(steps))], ["yaml", toYaml(withSteps(steps))]] as const) {
      const { diagnostics } = diagnose(text, format);
      const d = diagnostics.find((x) => x.code === "lwir.output_ambiguous_for_multi_visit");
      assert.ok(d, format);
      const output = dataOf(d).output!;
      assert.ok(output.range, `${format}: the output word is located`);
      assert.equal(textAt(text, output.range), "output", format);
      assert.equal(text.slice(output.start, output.end), "output", format);
      assert.equal(textAt(text, d.relatedInformation![0].location.range), "2", `${format}: related points at maxVisits`);
    }
  });
});

describe("graph findings", () => {
  test("lwir.invalid_cycle lists the members of its own component, with related information", () => {
    const text = json(withSteps([
      aiStep("a", { needs: ["b"] }), aiStep("b", { needs: ["a"] }),
      aiStep("c", { needs: ["d"], maxVisits: 2 }), aiStep("d", { needs: ["c"], maxVisits: 2 }),
      aiStep("z", { needs: ["a", "b", "c", "d"] }),
    ]));
    const { diagnostics } = diagnose(text);
    const cycles = diagnostics.filter((x) => x.code === "lwir.invalid_cycle");
    assert.equal(cycles.length, 2);
    for (const d of cycles) {
      const cycle = dataOf(d).cycle!;
      const ids = cycle.steps.map((s) => s.id!);
      // The validator's message names the same members.
      for (const id of ids) assert.match(d.message as string, new RegExp(`\\b${id}\\b`));
      assert.equal(cycle.reason, ids.includes("a") ? "maxVisits" : "decision");
      assert.deepEqual(d.relatedInformation!.map((r) => textAt(text, r.location.range)).sort(), ids.map((id) => `"${id}"`).sort());
    }
  });

  test("step.duplicate_id points at the first step with the id", () => {
    const text = json(withSteps([aiStep("a"), aiStep("b", { needs: ["a"] }), aiStep("a")]));
    const { diagnostics } = diagnose(text);
    const d = diagnostics.find((x) => x.code === "step.duplicate_id")!;
    assert.deepEqual(dataOf(d).first, { id: "a", segments: ["steps", 0] });
    assert.equal(d.relatedInformation![0].location.range.start.line < d.range.start.line, true);
  });

  test("terminal.ambiguous lists the terminal steps", () => {
    const text = json(withSteps([aiStep("a"), aiStep("b"), aiStep("c", { needs: ["a"] })]));
    const { diagnostics } = diagnose(text);
    const d = diagnostics.find((x) => x.code === "terminal.ambiguous")!;
    assert.deepEqual(dataOf(d).terminals, [{ id: "b", segments: ["steps", 1] }, { id: "c", segments: ["steps", 2] }]);
    assert.deepEqual(d.relatedInformation!.map((r) => textAt(text, r.location.range)), ['"b"', '"c"']);
  });
});

describe("YAML: an unquoted {{ }} read as a mapping (catalog section 11)", () => {
  const prompt = [
    "apiVersion: littleworkflow.dev/v0.1",
    "kind: Workflow",
    "metadata: {name: paper-digest}",
    "input: {schema: {type: object}}",
    "output: {schema: {type: string}}",
    "permissions: {models: [gpt-4o]}",
    "steps:",
    "  - id: digest",
    "    uses: ai.generate",
    "    with:",
    "      model: gpt-4o",
    "      prompt: {{ input.topic }}",
    "    output: {mode: text}",
    "",
  ].join("\n");

  test("a warning with its own code and the quoted replacement; the document stays valid", () => {
    const { analysis, diagnostics } = diagnose(prompt, "yaml");
    assert.equal(analysis.valid, true, "never a finding");
    assert.equal(diagnostics.length, 1);
    const [d] = diagnostics;
    assert.equal(d.code, YAML_UNQUOTED_TEMPLATE);
    assert.equal(d.severity, 2);
    assert.equal(textAt(prompt, d.range), "{{ input.topic }}");
    const data = dataOf(d);
    assert.deepEqual(data.segments, ["steps", 0, "with", "prompt"]);
    assert.equal(data.unquotedTemplate!.replacement, '"{{ input.topic }}"');
    assert.equal(prompt.slice(data.unquotedTemplate!.start, data.unquotedTemplate!.end), "{{ input.topic }}");
  });

  test("single quotes when the template holds double quotes", () => {
    const text = prompt.replace("{{ input.topic }}", "{{ coalesce(input.topic, input.x) == \"a\" }}");
    const { diagnostics } = diagnose(text, "yaml");
    const hint = diagnostics.find((d) => d.code === YAML_UNQUOTED_TEMPLATE)!;
    assert.equal(dataOf(hint).unquotedTemplate!.replacement, `'{{ coalesce(input.topic, input.x) == "a" }}'`);
  });

  test("a finding on such a value says what YAML did", () => {
    const text = [
      "apiVersion: littleworkflow.dev/v0.1",
      "kind: Workflow",
      "metadata: {name: t}",
      "input: {schema: {type: object}}",
      "output: {schema: {type: object}}",
      "permissions: {models: [m]}",
      "steps:",
      "  - id: assess",
      "    uses: ai.generate",
      "    with: {model: m, prompt: hi}",
      "    output: {mode: object, schema: {type: object}}",
      "  - id: route",
      "    uses: decision",
      "    needs: [assess]",
      "    with:",
      "      cases:",
      "        - when: {{ steps.assess.output.urgent }}",
      "          to: end",
      "      default: end",
      "",
    ].join("\n");
    const { diagnostics } = diagnose(text, "yaml");
    const finding = diagnostics.find((d) => d.code === "decision.case_invalid")!;
    assert.match(finding.message as string, /YAML read the unquoted \{\{ steps\.assess\.output\.urgent \}\} as a mapping/);
    assert.equal(dataOf(finding).unquotedTemplate?.replacement, '"{{ steps.assess.output.urgent }}"');
    assert.equal(diagnostics.filter((d) => d.code === YAML_UNQUOTED_TEMPLATE).length, 1);
  });

  test("quoted templates, JSON documents and mappings that do not start with {{ get nothing", () => {
    assert.deepEqual(diagnose(prompt.replace("{{ input.topic }}", '"{{ input.topic }}"'), "yaml").diagnostics, []);
    assert.deepEqual(diagnose(prompt.replace("{{ input.topic }}", "{ a: 1 }"), "yaml").diagnostics
      .filter((d) => d.code === YAML_UNQUOTED_TEMPLATE), []);
    const asJson = json({ ...withSteps([aiStep("a", { with: { model: "model-a", prompt: { "{ input.topic }": null } } })]) });
    assert.deepEqual(diagnose(asJson).diagnostics.filter((d) => d.code === YAML_UNQUOTED_TEMPLATE), []);
  });

  test("a syntax error in a value that starts with an unquoted {{ says why", () => {
    const text = prompt.replace("{{ input.topic }}", "{{ input.topic }} and more");
    const { analysis, diagnostics } = diagnose(text, "yaml");
    assert.ok(analysis.document.parseErrors.length > 0);
    assert.ok(diagnostics.some((d) => d.code === PARSE_CODE && /must be quoted in YAML/.test(d.message as string)));
  });
});

describe("helpers", () => {
  test("sourceOffsetOf (stringSource.ts's fallback) maps value offsets to the source spelling, or gives up when ambiguous", () => {
    const value = 'say "hi"\n{{ steps.a.output }}';
    const source = JSON.stringify(value);
    const at = value.indexOf("output");
    const mapped = sourceOffsetOf(value, source, at, at + 6)!;
    assert.equal(source.slice(mapped, mapped + 6), "output");
    assert.equal(sourceOffsetOf("output", '"\\u006futput"', 0, 6), undefined);
  });
});

describe("a leading byte-order mark (issue #13)", () => {
  const valid = json(withSteps([aiStep("write")]));
  test("JSON: a parse error at the BOM saying to remove it, as JSON.parse (the runtime) refuses the text", () => {
    assert.equal(diagnose(valid).analysis.valid, true);
    const { analysis, diagnostics } = diagnose("\ufeff" + valid);
    assert.equal(analysis.valid, false);
    assert.equal(analysis.workflowVersion, null);
    assert.deepEqual(analysis.findings, []);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, d.message, d.range]), [
      [PARSE_CODE, 1, JSON_BOM_MESSAGE, { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }],
    ]);
    assert.match(JSON_BOM_MESSAGE, /byte-order mark.*remove the byte-order mark/);
    assert.equal(dataOf(diagnostics[0]).parserCode, "ByteOrderMark");
  });
  test("JSON: other syntax errors after the BOM are still reported, at their own places", () => {
    const { diagnostics } = diagnose('\ufeff{"a": 1,}');
    assert.deepEqual(diagnostics.map((d) => [d.message, d.range.start.character]), [[JSON_BOM_MESSAGE, 0], ["Trailing comma: not allowed in JSON.", 8]]);
  });
  test("JSON: a BOM later in the text is not a byte-order mark (it is just an invalid character)", () => {
    const { diagnostics } = diagnose(" \ufeff{}");
    assert.ok(diagnostics.length > 0);
    assert.ok(diagnostics.every((d) => d.message !== JSON_BOM_MESSAGE));
  });
  test("YAML: the text comes without the file's first BOM (the reader drops it, as the runtime's yaml does); a BOM left is read into the first key", () => {
    const yaml = toYaml(withSteps([aiStep("write")]));
    const plain = analyzeText(yaml, "yaml");
    assert.equal(plain.valid, true);
    // documentText: one BOM dropped for YAML (the editor and the CLI), the ranges those of the text without it
    const one = documentText(decodeUtf8(Buffer.from("\ufeff" + yaml, "utf8")), "yaml");
    assert.deepEqual([one.text, one.bom], [yaml, "\ufeff"]);
    assert.equal(analyzeText(one.text, "yaml").workflowVersion!.id, plain.workflowVersion!.id);
    // a second BOM: `\ufeffapiVersion` for the runtime, so apiVersion is missing
    const two = documentText(decodeUtf8(Buffer.from("\ufeff\ufeff" + yaml, "utf8")), "yaml");
    const analysis = analyzeText(two.text, "yaml");
    assert.deepEqual(analysis.document.parseErrors, []);
    assert.deepEqual(analysis.findings.map((f) => [f.code, f.path]), [["schema.invalid", "$.apiVersion"]]);
    assert.deepEqual(Object.keys(analysis.document.value as object)[0], "\ufeffapiVersion");
    // JSON keeps its BOMs: JSON.parse refuses them
    assert.equal(documentText(decodeUtf8(Buffer.from("\ufeff{}", "utf8")), "json").text, "\ufeff{}");
  });
});

describe("bytes the runtime reads: lwir.invalid_utf8, lwir.nul_byte", () => {
  const yaml = toYaml(withSteps([aiStep("write")]));
  test("a NUL character in the text: a warning at it, the document still valid (the editor's text has it too)", () => {
    const at = yaml.indexOf("steps:");
    const analysis = analyzeText(yaml.slice(0, at) + "# x\0\0\n" + yaml.slice(at), "yaml");
    assert.equal(analysis.valid, true);
    const line = yaml.slice(0, at).split("\n").length - 1;
    assert.deepEqual(toDiagnostics(analysis).map((d) => [d.code, d.severity, d.range]), [
      ["lwir.nul_byte", 2 /* Warning */, { start: { line, character: 3 }, end: { line, character: 5 } }],
    ]);
    assert.match(String(toDiagnostics(analysis)[0].message), /^2 NUL characters \(byte 0x00\): the runtime reads them as U\+0000/);
    assert.deepEqual(ownNotices(analysis).map((n) => n.code), ["lwir.nul_byte"]);
    assert.deepEqual(applyRuleLevels(toDiagnostics(analysis), { "lwir.nul_byte": "off" }), []);
  });
  test("bytes that were not UTF-8 (from the reader): a warning per run, with the bytes; a U+FFFD written as such gets none", () => {
    const bytes = Buffer.concat([Buffer.from(yaml.replace("name: fixture-workflow", "name: caf"), "utf8")]);
    const at = bytes.indexOf("name: caf") + "name: caf".length;
    const latin1 = Buffer.concat([bytes.subarray(0, at), Buffer.from([0xe9, 0xff]), bytes.subarray(at)]);
    const decoded = decodeUtf8(latin1);
    const analysis = analyzeText(decoded.text, "yaml", decoded.invalidUtf8);
    assert.equal(analysis.valid, true);
    const diagnostics = toDiagnostics(analysis);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.range.end.character - d.range.start.character]), [["lwir.invalid_utf8", 2]]);
    assert.match(String(diagnostics[0].message), /^Bytes 0xE9 0xFF are not UTF-8: the runtime reads the file as UTF-8 and sees 2 U\+FFFD/);
    // the same text without the reader's list (a U+FFFD in the file itself): nothing to say
    assert.deepEqual(toDiagnostics(analyzeText(decoded.text, "yaml")), []);
  });
  test("at most 20 warnings of each code, the last saying how many more", () => {
    const text = yaml + Array.from({ length: 25 }, () => "# \0\n").join("");
    const notices = ownNotices(analyzeText(text, "yaml"));
    assert.equal(notices.length, 20);
    assert.match(notices[19].message, /\(5 more such places in this file are not listed\.\)$/);
    assert.doesNotMatch(notices[18].message, /more such places/);
  });
});

describe("own rules and their levels", () => {
  const unquotedYaml = "apiVersion: x\nprompt: {{ input.topic }}\nodd: !tag 1\n";
  test("ownNotices: the parse warnings and YAML hints toDiagnostics publishes, as plain data", () => {
    const analysis = analyzeText(unquotedYaml, "yaml");
    const notices = ownNotices(analysis);
    assert.deepEqual(notices.map((n) => [n.code, n.path, n.range.start.line]), [[PARSE_WARNING_CODE, "$", 2], [YAML_UNQUOTED_TEMPLATE, "$.prompt", 1]]);
    const published = toDiagnostics(analysis).filter((d) => d.code === PARSE_WARNING_CODE || d.code === YAML_UNQUOTED_TEMPLATE);
    assert.deepEqual(published.map((d) => [d.code, d.message, d.range]).sort(), notices.map((n) => [n.code, n.message, n.range]).sort());
    assert.deepEqual(ownNotices(analyzeText('{"a": "{{ x }}"}', "json")), []);
  });
  test("applyRuleLevels: off drops, other levels set the LSP severity; findings, parse errors and unknown codes untouched", () => {
    const analysis = analyzeText(unquotedYaml, "yaml");
    const all = toDiagnostics(analysis);
    assert.equal(applyRuleLevels(all, undefined), all);
    assert.equal(applyRuleLevels(all, {}), all);
    const set = applyRuleLevels(all, { [YAML_UNQUOTED_TEMPLATE]: "hint", [PARSE_WARNING_CODE]: "off", "schema.invalid": "off" });
    assert.equal(set.filter((d) => d.code === PARSE_WARNING_CODE).length, 0);
    assert.deepEqual(set.filter((d) => d.code === YAML_UNQUOTED_TEMPLATE).map((d) => d.severity), [4]);
    assert.deepEqual(set.filter((d) => d.code === "schema.invalid"), all.filter((d) => d.code === "schema.invalid"));
    assert.ok(set.some((d) => d.code === "schema.invalid"));
    const levels = { info: 3, warning: 2, error: 1 } as const;
    for (const [level, severity] of Object.entries(levels)) {
      assert.deepEqual(applyRuleLevels([tooLargeDiagnostic(10, 5)], { [FILE_TOO_LARGE]: level as keyof typeof levels }).map((d) => d.severity), [severity]);
    }
  });
  test("levelOf, readRuleLevels and parseRuleOption know only our own codes", () => {
    assert.deepEqual(CONFIGURABLE_RULES.map((r) => r.code).sort(), [EMPTY_DOCUMENT, FILE_TOO_LARGE, INHERITED_FUNCTION_NAME, PARSE_WARNING_CODE, YAML_UNQUOTED_TEMPLATE,
      // the type checks (service/typeChecks.ts)
      "lwir.unknown_property", "lwir.property_of_scalar_output", "lwir.impossible_comparison", "lwir.items_not_array",
      // the bytes of a file (service/sourceBytes.ts)
      "lwir.invalid_utf8", "lwir.nul_byte",
      // misspelt keys (service/unknownKeys.ts)
      "lwir.unknown_key",
      // the checks that need no sample (run/checks, service/runNotices.ts)
      "lwir.needs_decision_step", "lwir.needs_unchosen_target", "lwir.body_terminal_ambiguous", "lwir.terminal_output_type", "lwir.loop_read_before_run", "lwir.body_reads_multi_visit_step", "lwir.item_key_not_string", "lwir.function_argument_type", "lwir.unsafe_input_key", "lwir.when_always_true",
      // scenarios files (scenarios/check.ts)
      "lwir.scenario_invalid", "lwir.scenario_no_workflow", "lwir.scenario_unknown_step", "lwir.scenario_unknown_target", "lwir.scenario_output_mismatch", "lwir.scenario_input_mismatch"].sort());
    assert.equal(levelOf(YAML_UNQUOTED_TEMPLATE, undefined), "warning");
    assert.equal(levelOf(YAML_UNQUOTED_TEMPLATE, { [YAML_UNQUOTED_TEMPLATE]: "off" }), "off");
    assert.equal(levelOf("model.disallowed", { "model.disallowed": "off" }), undefined);
    assert.equal(levelOf("toString", {}), undefined);
    assert.deepEqual(readRuleLevels({ [PARSE_WARNING_CODE]: "info", toString: "off", "model.disallowed": "off", [FILE_TOO_LARGE]: "loud" }), { [PARSE_WARNING_CODE]: "info" });
    assert.deepEqual(readRuleLevels(["x"]), {});
    assert.deepEqual(parseRuleOption(`${PARSE_WARNING_CODE}=error`, () => false), { code: PARSE_WARNING_CODE, level: "error" });
    assert.ok("error" in parseRuleOption("model.disallowed=off", (c) => c === "model.disallowed"));
  });
});

describe("YAML syntax errors in our own words (issue #14)", () => {
  const COLON = /^YAML reads a colon followed by a space inside an unquoted value as the start of a nested mapping: quote the value or use a block scalar \(\|\)\.$/;
  const TEMPLATE_HINT = /\{\{ must be quoted/;
  const workflow = (prompt: string, system = "You are a support agent") => [
    "apiVersion: littleworkflow.dev/v0.1",
    "kind: Workflow",
    "metadata: {name: triage}",
    "input: {schema: true}",
    "output: {schema: true}",
    "permissions:",
    "  models: [model-a]",
    "steps:",
    "  - id: classify",
    "    uses: ai.generate",
    "    with:",
    "      model: model-a",
    `      system: ${system}`,
    `      prompt: ${prompt}`,
    "    output:",
    "      mode: text",
    "",
  ].join("\n");
  /** The one parse diagnostic of a text (asserting there is exactly one). */
  const parseDiagnostic = (text: string) => {
    const { diagnostics } = diagnose(text, "yaml");
    assert.deepEqual(diagnostics.map((d) => d.code), [PARSE_CODE], JSON.stringify(diagnostics));
    return diagnostics[0];
  };

  test("a colon in prompt: one sentence, the whole value squiggled, no {{ hint, the value in data", () => {
    const text = workflow("Classify this ticket: {{ input.ticket }}");
    const d = parseDiagnostic(text);
    assert.match(d.message as string, COLON);
    assert.doesNotMatch(d.message as string, TEMPLATE_HINT);
    assert.equal(textAt(text, d.range), "Classify this ticket: {{ input.ticket }}");
    const value = dataOf(d).parseValue!;
    assert.equal(value.text, "Classify this ticket: {{ input.ticket }}");
    assert.equal(text.slice(value.start, value.end), value.text);
    assert.equal(value.indent, 6, "the column of prompt");
    assert.equal(dataOf(d).parserCode, "BLOCK_AS_IMPLICIT_KEY");
  });

  test("a colon in system: the squiggle stops before a comment", () => {
    const text = workflow("Classify {{ input.ticket }}", "You are: a support agent # tone");
    const d = parseDiagnostic(text);
    assert.match(d.message as string, COLON);
    assert.equal(textAt(text, d.range), "You are: a support agent");
    assert.equal(dataOf(d).parseValue!.text, "You are: a support agent");
  });

  test("a colon in a list item's value; a bare `- Classify: x` is a mapping, not an error", () => {
    const list = (item: string) => workflow("Classify").replace("  models: [model-a]", `  models: [model-a]\n  tools:\n    ${item}`);
    const d = parseDiagnostic(list("- Classify: this ticket: x"));
    assert.match(d.message as string, COLON);
    assert.equal(textAt(list("- Classify: this ticket: x"), d.range), "this ticket: x");
    assert.equal(dataOf(d).parseValue!.indent, 6, "the column of the item's key");
    const { analysis } = diagnose(list("- Classify: x"), "yaml");
    assert.deepEqual(analysis.document.parseErrors, []);
  });

  test("a colon on a later line of a multi-line value: the whole value, read as YAML folds it", () => {
    const text = workflow("Classify this ticket\n        for the team: {{ input.ticket }}");
    const d = parseDiagnostic(text);
    assert.match(d.message as string, COLON);
    assert.equal(textAt(text, d.range), "Classify this ticket\n        for the team: {{ input.ticket }}");
    assert.equal(dataOf(d).parseValue!.text, "Classify this ticket for the team: {{ input.ticket }}");
  });

  test("a value that starts with {{: the hint, on the whole value, once", () => {
    for (const value of ["{{ input.ticket }}: classify: it", "{{ input.ticket }} and more", "{{ input.a }} {{ input.b }}"]) {
      const text = workflow(value);
      // (after `{{ a }} {{ b }}` the package loses its place and reports the lines below too: the first is ours)
      const d = value.includes("input.b") ? diagnose(text, "yaml").diagnostics[0] : parseDiagnostic(text);
      assert.equal(d.message, "A value that starts with {{ must be quoted in YAML: unquoted, YAML reads it as a mapping.");
      assert.equal(textAt(text, d.range), value);
      assert.equal(dataOf(d).parseValue!.text, value);
    }
  });

  test("a stray quote: what is wrong with the quotes, on the quoted value; never the {{ hint", () => {
    const unclosed = workflow('"Classify {{ input.ticket }}');
    const d = parseDiagnostic(unclosed);
    assert.equal(d.message, 'This value opens a " quote that is never closed: add the closing " at the end of the value.');
    assert.equal(textAt(unclosed, d.range), '"Classify {{ input.ticket }}');
    const after = workflow('"Classify" this {{ input.ticket }}');
    const e = parseDiagnostic(after);
    assert.match(e.message as string, /^This value has text after its closing quote \("\)/);
    assert.doesNotMatch(e.message as string, TEMPLATE_HINT);
    assert.equal(textAt(after, e.range), '"Classify" this {{ input.ticket }}');
    const inner = workflow("'it's {{ input.ticket }}'");
    assert.equal(dataOf(parseDiagnostic(inner)).parseValue!.text, "it's {{ input.ticket }}");
  });

  test("a tab used for indentation: said so, on the indentation", () => {
    const text = workflow("Classify").replace("      mode: text", "\tmode: text");
    const { diagnostics } = diagnose(text, "yaml");
    const d = diagnostics[0];
    assert.equal(d.message, "YAML does not allow tabs for indentation: indent with spaces.");
    assert.equal(textAt(text, d.range), "\t");
  });

  test("JSON parse errors keep the parser's message", () => {
    const { analysis, diagnostics } = diagnose('{"apiVersion": "x",}');
    assert.ok(diagnostics.length > 0);
    assert.deepEqual(diagnostics.map((d) => d.message), analysis.document.parseErrors.map((p) => p.message));
    assert.ok(diagnostics.every((d) => dataOf(d).parseValue === undefined));
  });
});

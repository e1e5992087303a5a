// The runtime decides with plain JavaScript operations on the user's values; these cases, found by
// differential fuzzing against it, pin each such decision (findings catalog 3.2, 3.4, 5.5, 5.8, 11 on
// 9.1), every one through the JSON and the YAML text of the same document.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import YAML from "yaml";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analyzeText } from "../../server/src/service/analysis";
import { INHERITED_FUNCTION_NAME, toDiagnostics } from "../../server/src/service/diagnostics";
import { aiStep, baseWorkflow, decisionStep, parallelStep, withSteps, type Json } from "./lwir-fixtures";

/** "path code" of every finding, sorted, after checking the JSON and the YAML text agree. */
function findingsOf(doc: Json): string[] {
  const fromJson = analyzeText(JSON.stringify(doc, null, 2), "json");
  const fromYaml = analyzeText(YAML.stringify(doc), "yaml");
  assert.equal(fromJson.document.parseErrors.length, 0, "the JSON text parses");
  assert.equal(fromYaml.document.parseErrors.length, 0, "the YAML text parses");
  const list = (a: typeof fromJson) => a.findings.map((f) => `${f.path} ${f.code}`).sort();
  assert.deepEqual(list(fromYaml), list(fromJson), "JSON and YAML give the same findings");
  return list(fromJson);
}

function promptDoc(prompt: string): Json {
  return withSteps([aiStep("a", { with: { model: "model-a", prompt } })]);
}

describe("5.5: function names are looked up in a plain object", () => {
  for (const body of ["toString()", "valueOf(input.topic)", "hasOwnProperty()", "isPrototypeOf(input.topic, input.list, 'x')",
    "propertyIsEnumerable(1, 2, 3, 4)", "toLocaleString()", "__lookupGetter__(input.topic)", "upper(toString(input.topic))"]) {
    test(`{{ ${body} }} is accepted (any number of arguments)`, () => {
      assert.deepEqual(findingsOf(promptDoc(`Write {{ ${body} }}`)), []);
    });
  }
  for (const body of ["toString(input..topic)", "valueOf(nothing.here)", "toString(a,,b)", "ToString()", "map(input.list)",
    "constructor()", "__proto__()", "upper()", "upper(input.topic, 1)"]) {
    test(`{{ ${body} }} is still refused`, () => {
      assert.deepEqual(findingsOf(promptDoc(`Write {{ ${body} }}`)), ["$.steps[0].with.prompt expression.invalid"]);
    });
  }
});

describe(`${INHERITED_FUNCTION_NAME}: the editor warns where the runtime lets a useless call through`, () => {
  function warnings(text: string, format: "json" | "yaml"): Array<{ text: string; line: number }> {
    const analysis = analyzeText(text, format);
    const lines = text.split("\n");
    return toDiagnostics(analysis).filter((d) => d.code === INHERITED_FUNCTION_NAME).map((d) => {
      assert.equal(d.severity, 2, "a warning");
      assert.equal(d.range.start.line, d.range.end.line);
      return { text: lines[d.range.start.line].slice(d.range.start.character, d.range.end.character), line: d.range.start.line };
    });
  }
  const doc = promptDoc("A {{ toString() }} B {{ coalesce(input.topic, valueOf(input.list)) }}");
  for (const format of ["json", "yaml"] as const) {
    test(`${format}: one warning per call, on the function name`, () => {
      const text = format === "json" ? JSON.stringify(doc, null, 2) : YAML.stringify(doc);
      assert.deepEqual(warnings(text, format).map((w) => w.text), ["toString", "valueOf"]);
      assert.equal(analyzeText(text, format).valid, true, "never a finding");
    });
    test(`${format}: decision when and step input are read; metadata and invalid templates are not`, () => {
      const d = baseWorkflow();
      d.metadata.description = "{{ toString() }}";
      d.steps[0].input = { seed: "{{ valueOf() }}" };
      d.steps[1].with.prompt = "{{ toString(input..x) }}";
      d.steps.push(decisionStep("route", { cases: [{ when: "{{ hasOwnProperty(steps.write.output) }}", to: "end" }], default: "end" }, { needs: ["write"] }));
      const text = format === "json" ? JSON.stringify(d, null, 2) : YAML.stringify(d);
      assert.deepEqual(warnings(text, format).map((w) => w.text), ["valueOf", "hasOwnProperty"]);
    });
  }
  test("a call in a parallel body's step is read (the body is the parallel step's own steps)", () => {
    const d = baseWorkflow();
    d.steps.push(parallelStep("fan", [aiStep("branch", { with: { model: "model-a", prompt: "Handle {{ item }} {{ toString() }}" } })], { needs: ["write"] }));
    for (const format of ["json", "yaml"] as const) {
      const text = format === "json" ? JSON.stringify(d, null, 2) : YAML.stringify(d);
      const analysis = analyzeText(text, format);
      const found = toDiagnostics(analysis).filter((x) => x.code === INHERITED_FUNCTION_NAME).map((x) => (x.data as { path?: string }).path);
      assert.deepEqual(found, [`$.steps[${d.steps.length - 1}].steps[0].with.prompt`], format);
    }
  });
  test("a document with no such call has no warning (every example workflow shape)", () => {
    assert.deepEqual(warnings(JSON.stringify(baseWorkflow(), null, 2), "json"), []);
  });
});

describe("5.8: steps.__proto__, steps.constructor, steps.prototype are no step reference", () => {
  for (const name of ["prototype", "constructor", "__proto__"]) {
    test(`steps.${name}.output with a step named "${name}": only the template is refused`, () => {
      const doc = withSteps([aiStep(name), aiStep("second", { with: { model: "model-a", prompt: `{{ steps.${name}.output }}` } })]);
      assert.deepEqual(findingsOf(doc), ["$.steps terminal.ambiguous", "$.steps[1].with.prompt expression.invalid"]);
    });
    test(`steps.${name} with no such step: no missing_dependency`, () => {
      assert.deepEqual(findingsOf(promptDoc(`{{ steps.${name}.output.x }}`)), ["$.steps[0].with.prompt expression.invalid"]);
    });
  }
  test("an ordinary id next to them is still a reference", () => {
    assert.deepEqual(findingsOf(promptDoc("{{ steps.prototypes.output }}")), ["$.steps[0].with.prompt step.missing_dependency"]);
  });
});

describe("3.2 stage 3: required keys are tested with `in`", () => {
  function schemaDoc(required: string[]): Json {
    const doc = baseWorkflow();
    doc.input.schema = { type: "object", properties: { topic: { type: "string" } }, required };
    return doc;
  }
  for (const name of ["toString", "constructor", "hasOwnProperty", "valueOf", "__proto__", "isPrototypeOf", "__defineGetter__"]) {
    test(`required "${name}" counts as present`, () => {
      assert.deepEqual(findingsOf(schemaDoc(["topic", name])), []);
    });
  }
  test("an undeclared ordinary name is still reported, once per name", () => {
    assert.deepEqual(findingsOf(schemaDoc(["topic", "length", "prototype", "tostring"])),
      ["$.input.schema schema.invalid", "$.input.schema schema.invalid", "$.input.schema schema.invalid"]);
  });
});

describe("3.4: the cycle rule is (maxVisits ?? 1) >= 2 with JavaScript's coercion", () => {
  function loop(visits: unknown): Json {
    const doc = withSteps([
      aiStep("work", { with: { model: "model-a", prompt: "{{ steps.check.lastOutput }}" }, maxVisits: 3 }),
      decisionStep("check", { cases: [{ when: "{{ steps.work.lastOutput == 'done' }}", to: "end" }], default: "work" }, { needs: ["work"] }),
    ]);
    if (visits !== undefined) doc.steps[1].maxVisits = visits;
    return doc;
  }
  for (const [label, v] of [["\"x\"", "x"], ["\"\"", ""], ["{}", {}], ["[1,2]", [1, 2]], ["true", true], ["null", null], ["\"1\"", "1"], ["[]", []]] as const) {
    test(`maxVisits ${label} fails it`, () => {
      assert.deepEqual(findingsOf(loop(v)), ["$.steps lwir.invalid_cycle", "$.steps[1].maxVisits step.max_visits_out_of_range"]);
    });
  }
  test("maxVisits missing fails it (counts as 1)", () => {
    assert.deepEqual(findingsOf(loop(undefined)), ["$.steps lwir.invalid_cycle"]);
  });
  for (const [label, v] of [["\"2\"", "2"], ["\" 3\"", " 3"], ["\"0x2\"", "0x2"], ["[2]", [2]], ["[\"5\"]", ["5"]]] as const) {
    test(`maxVisits ${label} passes it (only the range check fires)`, () => {
      assert.deepEqual(findingsOf(loop(v)), ["$.steps[1].maxVisits step.max_visits_out_of_range"]);
    });
  }
  test("maxVisits 2 is valid", () => {
    assert.deepEqual(findingsOf(loop(2)), []);
  });
});

describe("11 (9.1): a cases value that is not iterable", () => {
  const route = (cases: unknown, extra: Json = {}) => decisionStep("route", { cases, default: "end" }, { needs: ["a"], ...extra });
  for (const [label, cases] of [["7", 7], ["true", true], ["{}", {}], ["{length: 2}", { length: 2 }], ["{length: \"0x3\"}", { length: "0x3" }]] as const) {
    test(`on a step in the flow graph, ${label} gives one decision.case_invalid at cases`, () => {
      assert.deepEqual(findingsOf(withSteps([aiStep("a"), route(cases)])), ["$.steps[1].with.cases decision.case_invalid"]);
    });
  }
  const duplicate = (cases: unknown) => withSteps([aiStep("a"), route([{ when: "{{ steps.a.output == 'x' }}", to: "end" }]), route(cases)]);
  const walked: Array<[string, unknown, number]> = [
    ["{length: 2}", { length: 2 }, 2], ["{length: \"0x3\"}", { length: "0x3" }, 3], ["{length: true}", { length: true }, 1],
    ["{length: 1.5}", { length: 1.5 }, 2], ["{length: \"x\"}", { length: "x" }, 0], ["{length: [2]}", { length: [2] }, 2],
    ["7", 7, 0], ["true", true, 0], ["{}", {}, 0], ["\"ab\"", "ab", 2],
  ];
  for (const [label, cases, n] of walked) {
    test(`on a duplicate id, ${label} is walked by index: ${n} case finding(s)`, () => {
      const expected = ["$.steps[2].id step.duplicate_id", ...Array.from({ length: n }, (_, k) => `$.steps[2].with.cases[${k}] decision.case_invalid`)];
      assert.deepEqual(findingsOf(duplicate(cases)), expected.sort());
    });
  }
  test("on a duplicate id, an indexed object's entries are read as cases", () => {
    const cases = { length: 2, 0: { when: "{{ steps.a.output == 'x' }}", to: "end" }, 1: { when: "{{ steps.a.output == 'y' }}", to: "nowhere" } };
    assert.deepEqual(findingsOf(duplicate(cases)), ["$.steps[2].id step.duplicate_id", "$.steps[2].with decision.target_not_in_scope"]);
  });
  test("an enormous length is bounded, not a hang", () => {
    const result = analyzeText(JSON.stringify(duplicate({ length: 1e12 })), "json");
    assert.equal(result.findings.filter((f) => f.code === "decision.case_invalid").length, 10_000);
  });
  test("on an invalid id, only step.invalid_id", () => {
    assert.deepEqual(findingsOf(withSteps([aiStep("a"), route(7, { id: "bad.id" })])), ["$.steps[1].id step.invalid_id"]);
  });
});

describe(`${INHERITED_FUNCTION_NAME}: no noise on the corpora`, () => {
  const root = join(process.cwd(), "test", "corpus");
  for (const corpus of ["conformance", "realworld"]) {
    test(`${corpus}: only the cases written for inherited names get the warning`, () => {
      const files = readdirSync(join(root, corpus)).filter((f) => /\.lwir\.(json|yaml)$/.test(f));
      assert.ok(files.length >= 46, `the ${corpus} corpus is there (${files.length} documents)`);
      const warned = files.filter((f) => {
        const analysis = analyzeText(readFileSync(join(root, corpus, f), "utf8"), f.endsWith(".json") ? "json" : "yaml");
        return toDiagnostics(analysis).some((d) => d.code === INHERITED_FUNCTION_NAME);
      });
      assert.deepEqual(warned, corpus === "conformance"
        // (…-args-still-checked has a refused argument: its finding says enough.)
        ? ["quirk--inherited-function-name-hasownproperty-any-arity.lwir.yaml", "quirk--inherited-function-name-valueof.lwir.json"]
        : []);
    });
  }
});

// Where the catalog is silent, step ids, targets, models and tools are compared as strings (a Map or
// an array's includes), never looked up in a plain object: differential runs with these names in every
// position agreed with the runtime this way. An inherited name is an ordinary, unknown name.
describe("names the runtime compares as strings: Object.prototype names are ordinary", () => {
  for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]) {
    test(`needs "${name}" names no step`, () => {
      assert.deepEqual(findingsOf(withSteps([aiStep("a", { needs: [name] })])), ["$.steps[0].needs[0] step.missing_dependency"]);
    });
    test(`a step with id "${name}" is declared, needed and terminal like any other`, () => {
      assert.deepEqual(findingsOf(withSteps([aiStep(name), aiStep("b", { needs: [name] })])), []);
      assert.deepEqual(findingsOf(withSteps([aiStep(name), aiStep("b")])), ["$.steps terminal.ambiguous"]);
    });
    test(`decision target "${name}" is not in scope`, () => {
      const route = decisionStep("route", { cases: [{ when: "{{ steps.a.output == 'x' }}", to: name }], default: "end" }, { needs: ["a"] });
      assert.deepEqual(findingsOf(withSteps([aiStep("a"), route])), ["$.steps[1].with decision.target_not_in_scope"]);
    });
    test(`model "${name}" is not allowed by permissions.models`, () => {
      assert.deepEqual(findingsOf(withSteps([aiStep("a", { with: { model: name, prompt: "x" } })])), ["$.steps[0].with.model model.disallowed"]);
    });
  }
});

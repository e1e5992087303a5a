// Document-level findings (catalog 2, 3.1, 3.2 positions, 6.1 refusals, 9.6, 11 for 9.2):
// non-object roots, the top-level shape, permissions, workflow schemas, terminal.ambiguous and
// lwir.non_hashable.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import YAML from "yaml";
import { runInNewContext } from "node:vm";
import {
  aiStep, baseWorkflow, decisionStep, expectFindings, expectValid, parallelStep, toolStep, validate, withSteps,
} from "./lwir-fixtures";

describe("root type (catalog 3.1: `$` when the document is not an object; only finding)", () => {
  const roots: Array<[string, unknown]> = [
    ["empty array", []],
    ["array of steps", [{ id: "a" }]],
    ["string", "littleworkflow.dev/v0.1"],
    ["empty string", ""],
    ["number", 42],
    ["zero", 0],
    ["true", true],
    ["false", false],
    ["null (an empty YAML file)", null],
  ];
  for (const [name, value] of roots) {
    test(`${name} gives exactly one schema.invalid at $`, () => {
      expectFindings(value, ["$ schema.invalid"]);
    });
  }

  test("the base fixture is valid", () => {
    expectValid(baseWorkflow());
  });
});

describe("top-level shape (catalog 3.1 table)", () => {
  test("apiVersion missing, wrong, or wrongly typed", () => {
    for (const v of [undefined, "littleworkflow.dev/v0.2", "LittleWorkflow.dev/v0.1", " littleworkflow.dev/v0.1", 0.1, null, ["littleworkflow.dev/v0.1"]]) {
      const doc = baseWorkflow();
      if (v === undefined) delete doc.apiVersion; else doc.apiVersion = v;
      expectFindings(doc, ["$.apiVersion schema.invalid"], `apiVersion ${JSON.stringify(v)}`);
    }
  });

  test("kind must be exactly Workflow", () => {
    for (const v of [undefined, "workflow", "Workflows", "", null, 1]) {
      const doc = baseWorkflow();
      if (v === undefined) delete doc.kind; else doc.kind = v;
      expectFindings(doc, ["$.kind schema.invalid"], `kind ${JSON.stringify(v)}`);
    }
  });

  test("metadata that is not an object is reported at $.metadata, name not checked", () => {
    for (const v of [undefined, null, "fixture", [], ["name"], 3]) {
      const doc = baseWorkflow();
      if (v === undefined) delete doc.metadata; else doc.metadata = v;
      expectFindings(doc, ["$.metadata schema.invalid"], `metadata ${JSON.stringify(v)}`);
    }
  });

  test("metadata.name must be a non-empty string", () => {
    for (const v of [undefined, "", null, 7, ["x"], {}]) {
      const doc = baseWorkflow();
      if (v === undefined) delete doc.metadata.name; else doc.metadata.name = v;
      expectFindings(doc, ["$.metadata.name schema.invalid"], `name ${JSON.stringify(v)}`);
    }
  });

  test("metadata.version, description, unknown metadata keys and unknown top-level keys are not checked", () => {
    const doc = baseWorkflow();
    doc.metadata.version = 12;
    doc.metadata.description = { not: "a string" };
    doc.metadata.labels = null;
    doc["x-origin"] = "{{ not a template }}";
    doc.extra = [1, 2, { "{{": "}}" }];
    expectValid(doc);
  });

  test("input and output: not an object, or no schema key at all", () => {
    for (const part of ["input", "output"]) {
      for (const v of [undefined, null, "schema", [], [{ schema: true }], {}, { type: "object" }, { Schema: true }]) {
        const doc = baseWorkflow();
        if (v === undefined) delete doc[part]; else doc[part] = v;
        expectFindings(doc, [`$.${part} schema.invalid`], `${part} ${JSON.stringify(v)}`);
      }
    }
  });

  test("steps that is not an array: one finding, no step validated, no terminal check", () => {
    for (const v of [undefined, null, {}, { a: aiStep("a"), b: aiStep("b") }, "steps", 0]) {
      const doc = baseWorkflow();
      if (v === undefined) delete doc.steps; else doc.steps = v;
      expectFindings(doc, ["$.steps schema.invalid"], `steps ${JSON.stringify(v)}`);
    }
  });

  test("an empty steps array is valid", () => {
    expectValid(withSteps([]));
  });

  test("problems keep accumulating: every failed top-level rule is reported", () => {
    const doc = { apiVersion: "v1", kind: "Flow", metadata: { name: "" }, input: {}, output: null, steps: "none", permissions: null };
    expectFindings(doc, [
      "$.apiVersion schema.invalid",
      "$.kind schema.invalid",
      "$.metadata.name schema.invalid",
      "$.input schema.invalid",
      "$.output schema.invalid",
      "$.steps schema.invalid",
      "$.permissions schema.invalid",
    ]);
  });

  test("an empty object reports every required part", () => {
    expectFindings({}, [
      "$.apiVersion schema.invalid",
      "$.kind schema.invalid",
      "$.metadata schema.invalid",
      "$.input schema.invalid",
      "$.output schema.invalid",
      "$.steps schema.invalid",
    ]);
  });
});

describe("permissions (catalog 3.1, 2 stage 5)", () => {
  test("absent permissions: every model and tool is disallowed", () => {
    const doc = baseWorkflow();
    delete doc.permissions;
    expectFindings(doc, ["$.steps[0].with.tool tool.disallowed", "$.steps[1].with.model model.disallowed"]);
  });

  test("empty permissions object: every model and tool is disallowed, no shape finding", () => {
    const doc = baseWorkflow();
    doc.permissions = {};
    expectFindings(doc, ["$.steps[0].with.tool tool.disallowed", "$.steps[1].with.model model.disallowed"]);
  });

  test("permissions present but not an object (null included)", () => {
    for (const v of [null, "all", [], ["model-a"], 1, true]) {
      const doc = baseWorkflow();
      doc.permissions = v;
      expectFindings(doc, [
        "$.permissions schema.invalid",
        "$.steps[0].with.tool tool.disallowed",
        "$.steps[1].with.model model.disallowed",
      ], `permissions ${JSON.stringify(v)}`);
    }
  });

  test("models that is not a string array: schema.invalid at .models and no allow-list", () => {
    for (const v of ["model-a", ["model-a", 1], [null], { 0: "model-a" }, null, [["model-a"]]]) {
      const doc = baseWorkflow();
      doc.permissions.models = v;
      expectFindings(doc, ["$.permissions.models schema.invalid", "$.steps[1].with.model model.disallowed"], `models ${JSON.stringify(v)}`);
    }
  });

  test("tools that is not a string array: schema.invalid at .tools and no allow-list", () => {
    for (const v of ["search", ["search", false], null, {}]) {
      const doc = baseWorkflow();
      doc.permissions.tools = v;
      expectFindings(doc, ["$.permissions.tools schema.invalid", "$.steps[0].with.tool tool.disallowed"], `tools ${JSON.stringify(v)}`);
    }
  });

  test("models as an empty array disallows every model without a shape finding", () => {
    const doc = baseWorkflow();
    doc.permissions.models = [];
    expectFindings(doc, ["$.steps[1].with.model model.disallowed"]);
  });

  test("secrets and network: non-empty string arrays are unimplemented", () => {
    for (const name of ["secrets", "network"]) {
      const doc = baseWorkflow();
      doc.permissions[name] = ["API_KEY"];
      expectFindings(doc, [`$.permissions.${name} schema.unimplemented_field`], name);
      const both = baseWorkflow();
      both.permissions[name] = ["a", "b", ""];
      expectFindings(both, [`$.permissions.${name} schema.unimplemented_field`], `${name} with three entries`);
    }
  });

  test("secrets and network: wrong shapes are schema.invalid (and not unimplemented)", () => {
    for (const name of ["secrets", "network"]) {
      for (const v of ["API_KEY", [1], ["ok", null], null, {}]) {
        const doc = baseWorkflow();
        doc.permissions[name] = v;
        expectFindings(doc, [`$.permissions.${name} schema.invalid`], `${name} ${JSON.stringify(v)}`);
      }
    }
  });

  test("secrets and network absent or empty are fine; unknown permission keys are ignored", () => {
    const doc = baseWorkflow();
    delete doc.permissions.secrets;
    doc.permissions.network = [];
    doc.permissions.storage = "anything";
    expectValid(doc);
  });

  test("all four lists wrong at once: four findings plus both disallowed", () => {
    const doc = baseWorkflow();
    doc.permissions = { models: 1, tools: 2, secrets: 3, network: 4 };
    expectFindings(doc, [
      "$.permissions.models schema.invalid",
      "$.permissions.tools schema.invalid",
      "$.permissions.secrets schema.invalid",
      "$.permissions.network schema.invalid",
      "$.steps[0].with.tool tool.disallowed",
      "$.steps[1].with.model model.disallowed",
    ]);
  });
});

describe("workflow schemas at $.input.schema and $.output.schema (catalog 2 stage 4, 3.2)", () => {
  test("boolean schemas are accepted", () => {
    for (const v of [true, false]) {
      const doc = baseWorkflow();
      doc.input.schema = v;
      doc.output.schema = v;
      expectValid(doc, `schema ${v}`);
    }
  });

  test("a null schema passes the shape check and fails the schema check", () => {
    const doc = baseWorkflow();
    doc.input = { schema: null };
    doc.output = { schema: null };
    expectFindings(doc, ["$.input.schema schema.invalid", "$.output.schema schema.invalid"]);
  });

  test("shape failures: strings, numbers, arrays", () => {
    for (const v of ["object", 3, [], [{ type: "string" }]]) {
      const doc = baseWorkflow();
      doc.input.schema = v;
      expectFindings(doc, ["$.input.schema schema.invalid"], `input.schema ${JSON.stringify(v)}`);
    }
  });

  test("meta-schema failures give one finding at the schema root", () => {
    for (const v of [{ type: "strin" }, { minimum: "3" }, { enum: 5 }, { required: "a" }, { properties: [] }, { anyOf: [] }, { description: 42 }, { type: ["string", "string"] }]) {
      const doc = baseWorkflow();
      doc.output.schema = v;
      expectFindings(doc, ["$.output.schema schema.invalid"], `output.schema ${JSON.stringify(v)}`);
    }
  });

  test("keywords outside the subset are reported at the root even when nested deep", () => {
    const doc = baseWorkflow();
    doc.input.schema = { type: "object", properties: { a: { type: "object", properties: { b: { type: "string", format: "email" } } } } };
    expectFindings(doc, ["$.input.schema schema.invalid"]);
  });

  test("several problems in one schema give several findings at the same path", () => {
    const doc = baseWorkflow();
    doc.output.schema = {
      type: "object",
      properties: {
        a: { type: "string", minLength: 5, maxLength: 2 },
        b: { type: "number", minimum: 3, maximum: 1 },
        c: { type: "string", pattern: "^x" },
      },
    };
    expectFindings(doc, ["$.output.schema schema.invalid", "$.output.schema schema.invalid", "$.output.schema schema.invalid"]);
  });

  test("schemas are judged after canonicalisation: union discriminators are found in canonical key order", () => {
    // Catalog 2 stage 1: later stages see keys in canonical order. Both branches' first
    // const property in canonical order is "kind", whatever order the document wrote them in.
    const doc = baseWorkflow();
    doc.output.schema = {
      anyOf: [
        { type: "object", required: ["kind", "tag"], properties: { kind: { const: "a" }, tag: { const: "x" } } },
        { type: "object", required: ["tag", "kind"], properties: { tag: { const: "y" }, kind: { const: "b" } } },
      ],
    };
    expectValid(doc);
  });

  test("a union whose discriminators differ is refused (control for the previous test)", () => {
    const doc = baseWorkflow();
    doc.output.schema = {
      anyOf: [
        { type: "object", required: ["kind"], properties: { kind: { const: "a" } } },
        { type: "object", required: ["tag"], properties: { tag: { const: "y" } } },
      ],
    };
    expectFindings(doc, ["$.output.schema schema.invalid"]);
  });

  test("schema checks run after the shape check and do not stop it", () => {
    const doc = baseWorkflow();
    doc.kind = "Flow";
    doc.input.schema = { $schema: "http://json-schema.org/draft-07/schema#" };
    expectFindings(doc, ["$.kind schema.invalid", "$.input.schema schema.invalid"]);
  });
});

describe("terminal.ambiguous (catalog 3.1, quirk 9.6)", () => {
  test("two independent steps: one finding at $.steps", () => {
    expectFindings(withSteps([aiStep("a"), aiStep("b")]), ["$.steps terminal.ambiguous"]);
  });

  test("five independent steps still give a single finding", () => {
    expectFindings(withSteps(["a", "b", "c", "d", "e"].map((id) => aiStep(id))), ["$.steps terminal.ambiguous"]);
  });

  test("one terminal, or a single step, is fine; zero terminals is fine", () => {
    expectValid(withSteps([aiStep("only")]));
    expectValid(withSteps([aiStep("a"), aiStep("b", { needs: ["a"] }), aiStep("c", { needs: ["b"] })]));
    // Zero terminals: the only non-decision step is needed by the decision.
    expectValid(withSteps([aiStep("a"), decisionStep("d", { default: "end" }, { needs: ["a"] })]));
  });

  test("the terminal message names the terminal ids", () => {
    const r = validate(withSteps([aiStep("alpha-one"), aiStep("beta-two")]));
    assert.equal(r.findings.length, 1);
    assert.match(r.findings[0].message, /alpha-one/);
    assert.match(r.findings[0].message, /beta-two/);
  });

  test("invalid-id steps with a string id count as terminals", () => {
    for (const badId of ["", "a.b", "x[0]", "run@attempt_1"]) {
      expectFindings(withSteps([aiStep("a"), aiStep(badId)]), ["$.steps[1].id step.invalid_id", "$.steps terminal.ambiguous"], `id ${JSON.stringify(badId)}`);
    }
  });

  test("steps without a string id do not count", () => {
    for (const badId of [undefined, 7, null, ["a"]]) {
      const s = aiStep("x");
      if (badId === undefined) delete s.id; else s.id = badId;
      expectFindings(withSteps([aiStep("a"), s]), ["$.steps[1].id step.invalid_id"], `id ${JSON.stringify(badId)}`);
    }
  });

  test("duplicate entries count once each", () => {
    expectFindings(withSteps([aiStep("a"), aiStep("a")]), ["$.steps[1].id step.duplicate_id", "$.steps terminal.ambiguous"]);
  });

  test("a duplicate of a needed id is needed too", () => {
    expectFindings(withSteps([aiStep("a"), aiStep("b", { needs: ["a"] }), aiStep("a")]), ["$.steps[2].id step.duplicate_id"]);
  });

  test("non-object entries never count", () => {
    expectFindings(withSteps([aiStep("a"), "b", null, 3]), ["$.steps[1] step.invalid", "$.steps[2] step.invalid", "$.steps[3] step.invalid"]);
  });

  test("unknown or missing uses counts as a terminal", () => {
    const unknown = { id: "u", uses: "ai.generator", output: { mode: "text" } };
    expectFindings(withSteps([aiStep("a"), unknown]), ["$.steps[1].uses step.invalid_type", "$.steps terminal.ambiguous"]);
    const missing = { id: "m", output: { mode: "text" } };
    expectFindings(withSteps([aiStep("a"), missing]), ["$.steps[1].uses step.invalid_type", "$.steps terminal.ambiguous"]);
  });

  test("decisions never count", () => {
    expectValid(withSteps([aiStep("a"), decisionStep("d1", { default: "end" }), decisionStep("d2", { default: "end" })]));
  });

  test("decision targets do not count, from default and from case `to`", () => {
    const d = decisionStep("d", { cases: [{ when: "{{ steps.a.output == 'x' }}", to: "x" }], default: "y" }, { needs: ["a"] });
    expectValid(withSteps([aiStep("a"), d, aiStep("x"), aiStep("y")]));
  });

  test("a target named only by a malformed case (no when) still does not count", () => {
    const d = decisionStep("d", { cases: [{ to: "x" }], default: "end" }, { needs: ["a"] });
    expectFindings(withSteps([aiStep("a"), d, aiStep("x")]), ["$.steps[1].with.cases[0] decision.case_invalid"]);
  });

  test("\"end\" is never a target, even when a step is called end", () => {
    const d = decisionStep("d", { default: "end" }, { needs: ["a"] });
    expectFindings(withSteps([aiStep("a"), d, aiStep("end"), aiStep("z")]), ["$.steps terminal.ambiguous"]);
  });

  test("a decision whose `with` is not an object targets nothing", () => {
    const d = decisionStep("d", "x", { needs: ["a"] });
    expectFindings(withSteps([aiStep("a"), d, aiStep("x"), aiStep("y")]), ["$.steps[1].with.default decision.default_required", "$.steps terminal.ambiguous"]);
  });

  test("needs and decision targets of invalid-id entries are consulted", () => {
    // "b" is needed only by an entry whose id is invalid; "c" is targeted only by a decision whose id is invalid.
    const needsB = aiStep("x.y", { needs: ["b"] });
    const targetsC = decisionStep("d.e", { default: "c" });
    expectFindings(withSteps([aiStep("a"), aiStep("b"), aiStep("c"), needsB, targetsC, aiStep("f", { needs: ["a", "x.y"] })]), [
      "$.steps[3].id step.invalid_id",
      "$.steps[4].id step.invalid_id",
      "$.steps[5].needs[1] step.missing_dependency",
    ]);
  });

  test("needs entries of duplicate entries are consulted", () => {
    // The duplicate's own needs take no part in dependency analysis (no missing_dependency for "ghost").
    expectFindings(withSteps([aiStep("a"), aiStep("b", { needs: ["a"] }), aiStep("b", { needs: ["ghost"] }), aiStep("c", { needs: ["b"] })]),
      ["$.steps[2].id step.duplicate_id"]);
    // "c" is needed only by the duplicate b.
    expectFindings(withSteps([aiStep("c"), aiStep("b"), aiStep("b", { needs: ["c"] }), aiStep("e", { needs: ["b"] })]), ["$.steps[2].id step.duplicate_id"]);
    // Both entries called b are terminals.
    expectFindings(withSteps([aiStep("a"), aiStep("b", { needs: ["a"] }), aiStep("b", { needs: ["a"] })]),
      ["$.steps[2].id step.duplicate_id", "$.steps terminal.ambiguous"]);
  });

  test("a needs entry naming a terminal counts even when the needs array has invalid entries", () => {
    expectFindings(withSteps([aiStep("a"), aiStep("b", { needs: [1, "a"] })]), ["$.steps[1].needs[0] step.invalid_needs"]);
  });

  test("needs that is not an array needs nothing", () => {
    expectFindings(withSteps([aiStep("a"), aiStep("b", { needs: "a" })]), ["$.steps[1].needs step.invalid_needs", "$.steps terminal.ambiguous"]);
  });

  test("only top-level needs count: a step needed only by a body step is a terminal", () => {
    const body = [aiStep("one", { needs: ["src"], with: { model: "model-a", prompt: "{{ item }}" } })];
    expectFindings(withSteps([toolStep("src"), parallelStep("fan", body)]), ["$.steps[1].steps[0].needs[0] step.missing_dependency", "$.steps terminal.ambiguous"]);
  });

  test("parallel bodies are never checked for terminals", () => {
    const body = [aiStep("one", { with: { model: "model-a", prompt: "{{ item }}" } }), aiStep("two"), aiStep("three")];
    expectValid(withSteps([parallelStep("fan", body)]));
  });

  test("a parallel step is itself a terminal candidate at the top level", () => {
    expectFindings(withSteps([parallelStep("fan"), toolStep("t")]), ["$.steps terminal.ambiguous"]);
  });
});

describe("lwir.non_hashable (catalog 3.1, 6.1, 9.2, 11)", () => {
  const only = ["$ lwir.non_hashable"];
  function inStep(value: unknown) {
    const doc = baseWorkflow();
    doc.steps[1].input = { value };
    return doc;
  }

  test("non-finite numbers anywhere", () => {
    expectFindings(inStep(Infinity), only, "Infinity");
    expectFindings(inStep(-Infinity), only, "-Infinity");
    expectFindings(inStep(NaN), only, "NaN");
    const doc = baseWorkflow();
    doc.steps[0].maxVisits = NaN;
    expectFindings(doc, only, "NaN maxVisits");
  });

  test("lone surrogates in a value and in a key", () => {
    expectFindings(inStep("abc\ud800"), only, "high surrogate");
    expectFindings(inStep("\udc00x"), only, "low surrogate");
    expectFindings(inStep("\udc00\ud800"), only, "reversed pair");
    const doc = baseWorkflow();
    doc.metadata["bad\udfffkey"] = 1;
    expectFindings(doc, only, "surrogate in key");
    const deep = baseWorkflow();
    deep.output.schema = { type: "object", properties: { ["\ud83d"]: { type: "string" } } };
    expectFindings(deep, only, "surrogate key in schema");
  });

  test("a well-formed astral character is fine", () => {
    expectValid(inStep("rocket \ud83d\ude80"));
  });

  test("cyclic values", () => {
    const doc = baseWorkflow();
    doc.self = doc;
    expectFindings(doc, only, "root cycle");
    const inner = baseWorkflow();
    const w = inner.steps[1].with;
    w.args = { back: w };
    expectFindings(inner, only, "inner cycle");
    const arr: unknown[] = [];
    arr.push(arr);
    expectFindings(inStep(arr), only, "array cycle");
  });

  test("sharing the same object in two places is not a cycle", () => {
    const doc = baseWorkflow();
    const shared = { mode: "text" };
    doc.steps[0].output = shared;
    doc.steps[1].output = shared;
    expectValid(doc);
  });

  test("built-in exotic objects", () => {
    const exotic: Array<[string, unknown]> = [
      ["Map", new Map([["a", 1]])],
      ["empty Map", new Map()],
      ["Set", new Set(["a"])],
      ["Uint8Array", new Uint8Array([1, 2])],
      ["Buffer", Buffer.from("hi")],
      ["Date", new Date(0)],
      ["RegExp", /x/],
      ["boxed string", Object("s")],
    ];
    for (const [name, value] of exotic) expectFindings(inStep(value), only, name);
  });

  test("undefined inside an array or as a property value", () => {
    expectFindings(inStep([1, undefined, 3]), only, "undefined in array");
    expectFindings(inStep({ a: undefined }), only, "undefined property");
  });

  test("other values JSON cannot express", () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    class Thing { a = 1; }
    const cases: Array<[string, unknown]> = [
      ["function", () => 1],
      ["bigint", BigInt(1)],
      ["symbol", Symbol("s")],
      ["sparse array", sparse],
      ["class instance", new Thing()],
    ];
    for (const [name, value] of cases) expectFindings(inStep(value), only, name);
  });

  test("property kinds JSON cannot express: accessors, non-enumerable properties, symbol keys, extra array properties", () => {
    const accessor = {};
    Object.defineProperty(accessor, "a", { get: () => 1, enumerable: true });
    expectFindings(inStep(accessor), only, "accessor");
    const hidden = { a: 1 };
    Object.defineProperty(hidden, "b", { value: 2, enumerable: false });
    expectFindings(inStep(hidden), only, "non-enumerable");
    expectFindings(inStep({ a: 1, [Symbol("k")]: 2 }), only, "symbol key");
    const extra: unknown[] = [1, 2];
    (extra as unknown as Record<string, unknown>).note = "x";
    expectFindings(inStep(extra), only, "array with an extra property");
    class List extends Array {}
    expectFindings(inStep(List.from([1])), only, "array subclass");
    expectFindings(inStep(new Error("x")), only, "error object");
    expectFindings(inStep(Promise.resolve(1)), only, "promise");
  });

  // Catalog 6.1 refuses proxies, but a transparent proxy cannot be told from its target without engine
  // hooks (none in a browser); parsers never produce one. Decision: it is read as the data it shows.
  test("a transparent proxy around plain data is read as that data, without throwing", () => {
    const doc = baseWorkflow();
    expectValid(doc);
    (doc.steps as unknown[])[1] = new Proxy((doc.steps as unknown[])[1] as object, {});
    expectValid(doc);
  });

  test("an object from another realm is plain data", () => {
    const doc = baseWorkflow();
    doc.metadata = runInNewContext("({ name: 'other-realm', tags: ['a'] })");
    expectValid(doc);
  });

  test("a null-prototype object is plain data", () => {
    const meta = Object.create(null);
    meta.name = "np";
    const doc = baseWorkflow();
    doc.metadata = meta;
    expectValid(doc);
  });

  test("a root that is not JSON data at all", () => {
    for (const v of [undefined, () => 1, BigInt(7), Symbol("root"), NaN, new Map()]) {
      expectFindings(v, only, typeof v);
    }
  });

  test("non_hashable is reported alone, even on documents with other problems", () => {
    expectFindings([1, NaN], only, "array root");
    const doc = baseWorkflow();
    delete doc.apiVersion;
    doc.steps.push("not a step");
    doc.steps[0].with.args = { when: new Date(0) };
    expectFindings(doc, only);
  });

  test("values JSON text can produce: 1e400, -1e999 and \\ud800 escapes", () => {
    const text = JSON.stringify(baseWorkflow());
    expectFindings(JSON.parse(text.replace('"version":"0.1.0"', '"version":1e400')), only, "1e400");
    expectFindings(JSON.parse(text.replace('"version":"0.1.0"', '"version":-1e999')), only, "-1e999");
    expectFindings(JSON.parse(text.replace('"version":"0.1.0"', '"version":"v\\ud800"')), only, "lone escape");
    expectFindings(JSON.parse(text.replace('"version":"0.1.0"', '"v\\udc00":1')), only, "lone escape in key");
    // A proper escaped pair is fine.
    expectValid(JSON.parse(text.replace('"version":"0.1.0"', '"version":"\\ud83d\\ude80"')));
  });

  test("values YAML can produce: .inf, .nan, !!binary, !!set, !!omap, recursive aliases", () => {
    const yamlDoc = (extra: string) => YAML.parse([
      "apiVersion: littleworkflow.dev/v0.1",
      "kind: Workflow",
      "metadata:",
      "  name: yaml-values",
      `  extra: ${extra}`,
      "input: { schema: true }",
      "output: { schema: true }",
      "steps: []",
      "",
    ].join("\n"));
    expectValid(yamlDoc("plain"), "control");
    expectFindings(yamlDoc(".inf"), only, ".inf");
    expectFindings(yamlDoc("-.inf"), only, "-.inf");
    expectFindings(yamlDoc(".nan"), only, ".nan");
    expectFindings(yamlDoc("!!binary aGVsbG8="), only, "!!binary");
    expectFindings(yamlDoc("!!set { a, b }"), only, "!!set");
    expectFindings(yamlDoc("!!omap [ { a: 1 } ]"), only, "!!omap");
    expectFindings(yamlDoc("\"\\ud800\""), only, "lone surrogate escape");
    expectFindings(YAML.parse("&root\napiVersion: littleworkflow.dev/v0.1\nself: *root\n"), only, "recursive alias");
  });

  function nested(depth: number, leaf: unknown = "leaf"): unknown {
    let v: unknown = leaf;
    for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { k: v };
    return v;
  }

  test("6,000-deep nesting gives exactly one finding at $ and does not throw", () => {
    const doc = baseWorkflow();
    doc.metadata.deep = nested(6000);
    expectFindings(doc, only);
    expectFindings(nested(6000), only, "deep root value");
  });

  test("6,000-deep nesting inside a templated step input gives exactly one finding at $", () => {
    expectFindings(inStep(nested(6000, "{{ steps.ghost.output }}")), only);
  });

  test("the depth limit: 5,000 nested levels validate, 5,001 do not (section 11)", () => {
    // Root object (1) → metadata (2) → 4,998 nested containers = 5,000 levels.
    const at = baseWorkflow();
    at.metadata.deep = nested(4998);
    expectValid(at);
    const over = baseWorkflow();
    over.metadata.deep = nested(4999);
    expectFindings(over, only);
    assert.match(validate(over).findings[0].message, /5,?000/);
  });

  test("a deeply nested workflow schema (about 4,000 levels) validates without overflowing", () => {
    const depth = 1990;
    let schema: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < depth; i++) schema = { type: "object", properties: { a: schema } };
    const doc = baseWorkflow();
    doc.input.schema = schema;
    expectValid(doc);
    let bad: Record<string, unknown> = { type: "string", format: "date" };
    for (let i = 0; i < depth; i++) bad = { type: "object", properties: { a: bad } };
    const broken = baseWorkflow();
    broken.input.schema = bad;
    expectFindings(broken, ["$.input.schema schema.invalid"]);
  });

  test("nesting well below 5,000 levels validates as usual", () => {
    const depth = 3000;
    const doc = inStep(nested(depth, "{{ steps.gather.output"));
    // The malformed template at the bottom is still found, at its full path.
    const segments: string[] = [];
    for (let i = 0; i < depth; i++) segments.push(i % 2 === 0 ? "[0]" : ".k");
    const path = "$.steps[1].input.value" + segments.reverse().join("");
    expectFindings(doc, [`${path} expression.invalid`]);
  });
});

// Step entries and step-level fields (catalog 2.1, 2.2, 3.3, 3.5, 9.8, 9.9): step.invalid,
// step.invalid_id, step.duplicate_id, step.invalid_needs, step.invalid_type, sensitive, maxVisits,
// cache, parallel.nested_unsupported, the output contract and unknown-type steps.
import { describe, test } from "node:test";
import YAML from "yaml";
import {
  aiStep, baseWorkflow, codeRunStep, decisionStep, expectFindings, expectValid, parallelStep, toolStep, withSteps,
} from "./lwir-fixtures";

/** Base workflow with one extra terminal-free step: `gather` → `write` → `extra`. */
function withExtra(extra: Record<string, unknown>): unknown {
  const doc = baseWorkflow();
  doc.steps.push(defined({ needs: ["write"], ...extra }));
  return doc;
}

/** Drops keys whose value is undefined (an undefined value would make the document non-hashable). */
function defined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

describe("step.invalid (catalog 3.3)", () => {
  test("each non-object entry gives one finding at the element and is otherwise ignored", () => {
    const doc = baseWorkflow();
    doc.steps.push("write", 5, true, false, null, [], [{ id: "x" }], 0, "");
    expectFindings(doc, [2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => `$.steps[${i}] step.invalid`));
  });

  test("in a parallel body the path is the body element", () => {
    const par = parallelStep("fan");
    par.steps.push("oops", null);
    expectFindings(withSteps([par]), ["$.steps[0].steps[1] step.invalid", "$.steps[0].steps[2] step.invalid"]);
  });
});

describe("step.invalid_id (catalog 3.3)", () => {
  const bad: Array<[string, unknown]> = [
    ["non-string number", 12], ["null", null], ["true", true], ["object", { id: "a" }], ["array", ["a"]],
    ["empty", ""], ["dot", "a.b"], ["leading dot", ".a"], ["open bracket", "a[0"], ["close bracket", "a]"], ["both brackets", "x[1]"],
    ["attempt suffix", "run@attempt_2"], ["attempt only", "@attempt_"],
  ];
  for (const [name, id] of bad) {
    test(`${name} (${JSON.stringify(id)}) gives one finding at S.id; the step is skipped`, () => {
      // Everything else about the step is wrong too, and none of it is reported.
      const step = { id, uses: "nonsense", needs: "x", output: 5, cache: true, maxVisits: 0, sensitive: "yes", with: { p: "{{ broken" } };
      const expected = ["$.steps[2].id step.invalid_id"];
      if (typeof id === "string") expected.push("$.steps terminal.ambiguous");
      const doc = baseWorkflow();
      doc.steps.push(step);
      expectFindings(doc, expected);
    });
  }

  test("a missing id is invalid", () => {
    const step = aiStep("x");
    delete step.id;
    const doc = baseWorkflow();
    doc.steps.push(step);
    expectFindings(doc, ["$.steps[2].id step.invalid_id"]);
  });

  test("in a body (no terminal check there)", () => {
    const par = parallelStep("fan");
    par.steps.push(aiStep("with.dot"), aiStep("z@attempt_9"));
    expectFindings(withSteps([par]), ["$.steps[0].steps[1].id step.invalid_id", "$.steps[0].steps[2].id step.invalid_id"]);
  });

  test("other characters are allowed", () => {
    const ids = ["has space", "#tag", "(paren)", "a-b_c", "me@home", "@attempt", "attempt_1", "étape", "🚀 launch", "$dollar", "UPPER", "0starts-with-digit", "-"];
    for (const id of ids) {
      expectValid(withExtra(aiStep(id)), `id ${JSON.stringify(id)}`);
    }
  });

  test("invalid-id steps are not declared: needing one is a missing dependency", () => {
    const doc = baseWorkflow();
    doc.steps.splice(1, 0, aiStep("pre.step"));
    doc.steps[2].needs = ["gather", "pre.step"];
    expectFindings(doc, ["$.steps[1].id step.invalid_id", "$.steps[2].needs[1] step.missing_dependency"]);
  });

  test("YAML `id: 007` is the integer 7 and is refused; quoted \"007\" is fine", () => {
    const text = (id: string) => [
      "apiVersion: littleworkflow.dev/v0.1",
      "kind: Workflow",
      "metadata: { name: yaml-ids }",
      "input: { schema: true }",
      "output: { schema: true }",
      "permissions: { models: [model-a] }",
      "steps:",
      `  - id: ${id}`,
      "    uses: ai.generate",
      "    with: { model: model-a, prompt: hello }",
      "    output: { mode: text }",
      "",
    ].join("\n");
    expectFindings(YAML.parse(text("007")), ["$.steps[0].id step.invalid_id"]);
    expectValid(YAML.parse(text('"007"')));
    expectFindings(YAML.parse(text("1.5")), ["$.steps[0].id step.invalid_id"]);
    expectFindings(YAML.parse(text("true")), ["$.steps[0].id step.invalid_id"]);
    expectFindings(YAML.parse(text("~")), ["$.steps[0].id step.invalid_id"]);
  });
});

describe("step.duplicate_id (catalog 3.3, 2.1)", () => {
  test("every later entry with the same id is reported at its id", () => {
    const doc = baseWorkflow();
    doc.steps.push(toolStep("gather"), toolStep("gather"));
    expectFindings(doc, ["$.steps[2].id step.duplicate_id", "$.steps[3].id step.duplicate_id"]);
  });

  test("duplicates are still validated by the step checks", () => {
    const doc = baseWorkflow();
    doc.steps.push(toolStep("gather", { needs: [5], maxVisits: 0, sensitive: 1, output: null, with: { tool: "search", q: "{{ input. }}" } }));
    expectFindings(doc, [
      "$.steps[2].id step.duplicate_id",
      "$.steps[2].needs[0] step.invalid_needs",
      "$.steps[2].maxVisits step.max_visits_out_of_range",
      "$.steps[2].sensitive step.sensitive_must_be_boolean",
      "$.steps[2].output output.invalid",
      "$.steps[2].with.q expression.invalid",
    ]);
  });

  test("duplicates take no part in dependency, reference and cycle analysis", () => {
    const doc = baseWorkflow();
    doc.steps.push(toolStep("gather", {
      needs: ["ghost", "gather", "write"],
      with: { tool: "search", q: "{{ steps.nowhere.output }} {{ steps.write.output }}" },
    }));
    expectFindings(doc, ["$.steps[2].id step.duplicate_id"]);
  });

  test("the first entry wins for lookups", () => {
    // write reads gather.output: the first gather is single-visit text; the duplicate would be ambiguous and schema-less.
    const doc = baseWorkflow();
    doc.steps.push(toolStep("gather", { maxVisits: 5, output: { mode: "json" } }));
    expectFindings(doc, ["$.steps[2].id step.duplicate_id"]);
    // And the other way round: the first is multi-visit json without a schema.
    const rev = baseWorkflow();
    rev.steps[0].maxVisits = 5;
    rev.steps[0].output = { mode: "json" };
    rev.steps.push(toolStep("gather"));
    expectFindings(rev, [
      "$.steps[2].id step.duplicate_id",
      "$.steps[0].output.schema output.missing_schema",
      "$.steps[1].with.prompt lwir.output_ambiguous_for_multi_visit",
    ]);
  });

  test("ids may repeat across different lists", () => {
    const par = parallelStep("fan", [aiStep("fan", { with: { model: "model-a", prompt: "{{ item }}" } }), aiStep("gather", { needs: ["fan"] })]);
    expectValid(withSteps([toolStep("gather"), { ...par, needs: ["gather"] }]));
  });

  test("invalid ids are never duplicates", () => {
    const doc = baseWorkflow();
    doc.steps.push(aiStep("a.b"), aiStep("a.b", { needs: ["write"] }));
    expectFindings(doc, ["$.steps[2].id step.invalid_id", "$.steps[3].id step.invalid_id", "$.steps terminal.ambiguous"]);
  });
});

describe("step.invalid_needs (catalog 3.3)", () => {
  test("needs present but not an array (null included): one finding at S.needs, no dependencies", () => {
    for (const v of [null, "gather", { 0: "gather" }, 1, true]) {
      const doc = baseWorkflow();
      doc.steps[1].needs = v;
      expectFindings(doc, [
        "$.steps[1].needs step.invalid_needs",
        "$.steps[1].with.prompt step.undeclared_dependency",
        "$.steps terminal.ambiguous",
      ], `needs ${JSON.stringify(v)}`);
    }
  });

  test("each element that is not a non-empty string, the rest still count", () => {
    const doc = baseWorkflow();
    doc.steps[1].needs = [5, "", null, "gather", ["gather"], { id: "gather" }, false];
    expectFindings(doc, [0, 1, 2, 4, 5, 6].map((k) => `$.steps[1].needs[${k}] step.invalid_needs`));
  });

  test("an empty needs array is fine", () => {
    expectValid(withSteps([aiStep("a", { needs: [] })]));
  });

  test("applies to every step type", () => {
    const steps = [
      toolStep("t", { needs: "x" }),
      codeRunStep("c", { needs: [1] }),
      decisionStep("d", { default: "end" }, { needs: null }),
      { ...parallelStep("p"), needs: [""] },
      { id: "u", uses: "mystery", output: { mode: "text" }, needs: [false] },
      aiStep("final", { needs: ["t", "c", "p", "u"] }),
    ];
    expectFindings(withSteps(steps), [
      "$.steps[0].needs step.invalid_needs",
      "$.steps[1].needs[0] step.invalid_needs",
      "$.steps[2].needs step.invalid_needs",
      "$.steps[3].needs[0] step.invalid_needs",
      "$.steps[4].needs[0] step.invalid_needs",
      "$.steps[4].uses step.invalid_type",
    ]);
  });
});

describe("step.invalid_type (catalog 3.3)", () => {
  const bad: Array<[string, unknown]> = [
    ["missing", undefined], ["legacy tool", "tool"], ["legacy code.ts", "code.ts"], ["wrong case", "AI.generate"],
    ["trailing space", "tool.call "], ["number", 5], ["null", null], ["array", ["tool.call"]], ["object", { type: "tool.call" }],
    ["empty", ""],
  ];
  for (const [name, uses] of bad) {
    test(`${name}: one finding at S.uses, and unknown-type rules apply`, () => {
      const doc = baseWorkflow();
      if (uses === undefined) delete doc.steps[0].uses; else doc.steps[0].uses = uses;
      // with.tool is no longer required or allow-listed for an unknown type.
      doc.steps[0].with = { anything: 1, args: { q: "{{ input.topic }}" } };
      expectFindings(doc, ["$.steps[0].uses step.invalid_type"]);
    });
  }
});

describe("unknown-type steps (catalog 2.2, 4, 9.9)", () => {
  const unknown = (extra: Record<string, unknown> = {}) => ({ id: "u", uses: "ai.summarize", output: { mode: "text" }, ...extra });

  test("still need a valid output", () => {
    expectFindings(withExtra(unknown({ output: undefined })), ["$.steps[2].uses step.invalid_type", "$.steps[2].output output.invalid"]);
    expectFindings(withExtra(unknown({ output: { mode: "choice" } })), ["$.steps[2].uses step.invalid_type", "$.steps[2].output.values output.missing_values"]);
  });

  test("have `with` and `input` strings template-checked", () => {
    expectFindings(withExtra(unknown({ with: { prompt: "{{ input.a }", deep: [{ x: "{{ ; }}" }] }, input: { p: "}} x" } })), [
      "$.steps[2].uses step.invalid_type",
      "$.steps[2].with.prompt expression.invalid",
      "$.steps[2].with.deep[0].x expression.invalid",
      "$.steps[2].input.p expression.invalid",
    ]);
  });

  test("have sensitive, maxVisits and cache checked", () => {
    expectFindings(withExtra(unknown({ sensitive: "no", maxVisits: 0, cache: {} })), [
      "$.steps[2].uses step.invalid_type",
      "$.steps[2].sensitive step.sensitive_must_be_boolean",
      "$.steps[2].maxVisits step.max_visits_out_of_range",
      "$.steps[2].cache schema.unimplemented_field",
    ]);
  });

  test("do not have onFailure or `with` keys examined", () => {
    expectFindings(withExtra(unknown({ onFailure: "retry", with: "not an object" })), ["$.steps[2].uses step.invalid_type"]);
    expectFindings(withExtra(unknown({ onFailure: { fixer: 1, repair: { mode: "x" } }, with: { model: 5, tool: "", entrypoint: 1 } })), ["$.steps[2].uses step.invalid_type"]);
  });

  test("take part in dependency and graph checks", () => {
    expectFindings(withExtra(unknown({ needs: ["write", "ghost"], with: { p: "{{ steps.gather.output }} {{ steps.nope }}" } })), [
      "$.steps[2].uses step.invalid_type",
      "$.steps[2].needs[1] step.missing_dependency",
      "$.steps[2].with.p step.undeclared_dependency",
      "$.steps[2].with.p step.missing_dependency",
    ]);
    expectFindings(withExtra(unknown({ needs: ["write", "u"] })), ["$.steps[2].uses step.invalid_type", "$.steps lwir.invalid_cycle"]);
  });

  test("a `steps` key is not read for an unknown type", () => {
    expectFindings(withExtra(unknown({ steps: ["junk", { id: 1 }] })), ["$.steps[2].uses step.invalid_type"]);
    // Nor for a known non-parallel type.
    expectValid(withExtra(aiStep("v", { steps: ["junk"] })));
  });
});

describe("step.sensitive_must_be_boolean (catalog 3.3, 9.8)", () => {
  test("present and not true/false fires, any step type", () => {
    for (const v of [null, "yes", "true", 1, 0, [], {}]) {
      const steps = [
        aiStep("a", { sensitive: v }),
        toolStep("t", { sensitive: v, needs: ["a"] }),
        decisionStep("d", { default: "end" }, { sensitive: v, needs: ["t"] }),
        { ...parallelStep("p"), sensitive: v },
        aiStep("z", { needs: ["p", "t"] }),
      ];
      expectFindings(withSteps(steps), [0, 1, 2, 3].map((i) => `$.steps[${i}].sensitive step.sensitive_must_be_boolean`), `sensitive ${JSON.stringify(v)}`);
    }
  });

  test("true and false pass, also in bodies", () => {
    const par = parallelStep("p", [aiStep("one", { sensitive: true, with: { model: "model-a", prompt: "{{ item }}" } })]);
    expectValid(withSteps([toolStep("t", { sensitive: true }), { ...par, sensitive: false, needs: ["t"] }]));
  });

  test("in a body the path is the body step's", () => {
    const par = parallelStep("p", [aiStep("one", { sensitive: "on", with: { model: "model-a", prompt: "{{ item }}" } })]);
    expectFindings(withSteps([par]), ["$.steps[0].steps[0].sensitive step.sensitive_must_be_boolean"]);
  });
});

describe("step.max_visits_out_of_range (catalog 3.3)", () => {
  // Values are parsed from JSON text so that 5.0 and 1e2 are what a document really holds.
  const fire = ["0", "101", "2.5", "\"3\"", "null", "-1", "-0", "true", "[2]", "{}", "1000", "0.999"];
  for (const text of fire) {
    test(`maxVisits ${text} fires`, () => {
      const doc = baseWorkflow();
      doc.steps[1].maxVisits = JSON.parse(text);
      expectFindings(doc, ["$.steps[1].maxVisits step.max_visits_out_of_range"]);
    });
  }
  for (const text of ["1", "5.0", "1e2", "100", "1.0E1", "2"]) {
    test(`maxVisits ${text} passes`, () => {
      const doc = JSON.parse(JSON.stringify(baseWorkflow()).replace('"id":"write",', `"id":"write","maxVisits":${text},`));
      expectValid(doc);
    });
  }

  test("any step type, including decisions, parallel steps and body steps", () => {
    const par = parallelStep("p", [aiStep("one", { maxVisits: 0, with: { model: "model-a", prompt: "{{ item }}" } })]);
    const steps = [
      codeRunStep("c", { maxVisits: 101 }),
      decisionStep("d", { default: "end" }, { maxVisits: 0, needs: ["c"] }),
      { ...par, maxVisits: "2", needs: ["c"] },
    ];
    expectFindings(withSteps(steps), [
      "$.steps[0].maxVisits step.max_visits_out_of_range",
      "$.steps[1].maxVisits step.max_visits_out_of_range",
      "$.steps[2].maxVisits step.max_visits_out_of_range",
      "$.steps[2].steps[0].maxVisits step.max_visits_out_of_range",
    ]);
  });
});

describe("cache (catalog 3.3: schema.unimplemented_field at S.cache)", () => {
  test("any value, including null, false, and values that look broken", () => {
    for (const v of [null, false, true, 0, "", "ttl", [], {}, { key: "{{ broken" }, "{{ steps.ghost.output }}"]) {
      const doc = baseWorkflow();
      doc.steps[1].cache = v;
      expectFindings(doc, ["$.steps[1].cache schema.unimplemented_field"], `cache ${JSON.stringify(v)}`);
    }
  });

  test("every step type, unknown types and body steps", () => {
    const par = parallelStep("p", [aiStep("one", { cache: { ttl: 5 }, with: { model: "model-a", prompt: "{{ item }}" } })]);
    const steps = [
      toolStep("t", { cache: true }),
      codeRunStep("c", { cache: false, needs: ["t"] }),
      decisionStep("d", { default: "end" }, { cache: null, needs: ["c"] }),
      { ...par, cache: {}, needs: ["c"] },
      { id: "u", uses: "x.y", output: { mode: "text" }, cache: 1, needs: ["p"] },
    ];
    expectFindings(withSteps(steps), [
      "$.steps[0].cache schema.unimplemented_field",
      "$.steps[1].cache schema.unimplemented_field",
      "$.steps[2].cache schema.unimplemented_field",
      "$.steps[3].cache schema.unimplemented_field",
      "$.steps[3].steps[0].cache schema.unimplemented_field",
      "$.steps[4].cache schema.unimplemented_field",
      "$.steps[4].uses step.invalid_type",
    ]);
  });

  test("a key that merely resembles cache is ignored", () => {
    const doc = baseWorkflow();
    doc.steps[1].Cache = true;
    doc.steps[1].caching = true;
    expectValid(doc);
  });
});

describe("parallel.nested_unsupported (catalog 3.3)", () => {
  test("a parallel step in a body is reported at its uses and still fully validated", () => {
    const innerBody = [defined(aiStep("leaf", { output: undefined, with: { model: "model-a", prompt: "{{ item }}" } }))];
    const inner = parallelStep("inner", innerBody);
    inner.with.items = "{{ item.children }}";
    const outer = parallelStep("outer", [inner]);
    expectFindings(withSteps([outer]), [
      "$.steps[0].steps[0].uses parallel.nested_unsupported",
      "$.steps[0].steps[0].steps[0].output output.invalid",
    ]);
  });

  test("at any depth", () => {
    const l3 = parallelStep("l3");
    const l2 = parallelStep("l2", [l3]);
    const l1 = parallelStep("l1", [l2]);
    expectFindings(withSteps([l1]), [
      "$.steps[0].steps[0].uses parallel.nested_unsupported",
      "$.steps[0].steps[0].steps[0].uses parallel.nested_unsupported",
    ]);
  });

  test("the nested step's own with rules still apply", () => {
    const inner = parallelStep("inner");
    inner.with.maxBranches = 2.5;
    inner.steps = [];
    expectFindings(withSteps([parallelStep("outer", [inner])]), [
      "$.steps[0].steps[0].uses parallel.nested_unsupported",
      "$.steps[0].steps[0].with.maxBranches parallel.invalid_branches",
      "$.steps[0].steps[0].steps parallel.missing_steps",
    ]);
  });

  test("a top-level parallel step is not nested", () => {
    expectValid(withSteps([parallelStep("solo")]));
  });
});

describe("output contract (catalog 3.5)", () => {
  const step = (output: unknown) => {
    const doc = baseWorkflow();
    if (output === undefined) delete doc.steps[1].output; else doc.steps[1].output = output;
    return doc;
  };
  const at = (code: string, suffix = "") => `$.steps[1].output${suffix} ${code}`;

  test("output.invalid: not an object, or mode not one of the five", () => {
    for (const v of [undefined, null, "json", "text", [], [{ mode: "text" }], 1, {}, { mode: "JSON" }, { mode: "Text" }, { mode: 5 }, { mode: null }, { mode: "string" }, { type: "text" }]) {
      expectFindings(step(v), [at("output.invalid")], `output ${JSON.stringify(v)}`);
    }
  });

  test("output.invalid stops the other output checks", () => {
    expectFindings(step({ mode: "bogus", name: 5, description: null, schema: "x", values: 3 }), [at("output.invalid")]);
  });

  test("every valid mode", () => {
    for (const v of [
      { mode: "text" },
      { mode: "object", schema: { type: "object" } },
      { mode: "array", schema: { type: "array", items: { type: "string" } } },
      { mode: "choice", values: ["a", "b"] },
      { mode: "json" },
      { mode: "json", schema: true },
    ]) {
      expectValid(step(v), JSON.stringify(v));
    }
  });

  test("output.invalid_metadata: name and description present and not strings", () => {
    expectFindings(step({ mode: "text", name: 5, description: null }), [at("output.invalid_metadata", ".name"), at("output.invalid_metadata", ".description")]);
    expectFindings(step({ mode: "json", name: ["n"] }), [at("output.invalid_metadata", ".name")]);
    expectFindings(step({ mode: "choice", values: [], description: {} }), [at("output.invalid_metadata", ".description")]);
    expectValid(step({ mode: "text", name: "", description: "Plain text." }));
  });

  test("output.missing_schema (contract form): object or array without a schema key", () => {
    expectFindings(step({ mode: "object" }), [at("output.missing_schema", ".schema")]);
    expectFindings(step({ mode: "array", values: ["x"] }), [at("output.missing_schema", ".schema")]);
  });

  test("a present schema is checked as a schema at S.output.schema (object, array, json)", () => {
    for (const mode of ["object", "array", "json"]) {
      expectFindings(step({ mode, schema: null }), [at("schema.invalid", ".schema")], `${mode} null`);
      expectFindings(step({ mode, schema: "object" }), [at("schema.invalid", ".schema")], `${mode} string`);
      expectFindings(step({ mode, schema: { type: "object", properties: { a: { type: "string", format: "uri" } } } }), [at("schema.invalid", ".schema")], `${mode} format`);
    }
  });

  test("mode text ignores schema and values entirely", () => {
    expectValid(step({ mode: "text", schema: "broken", values: 7 }));
  });

  test("mode choice does not read the schema", () => {
    expectValid(step({ mode: "choice", values: ["a"], schema: "broken" }));
  });

  test("output.missing_values: choice without a values array", () => {
    for (const values of [undefined, "a,b", { a: 1 }, null, 3]) {
      const out: Record<string, unknown> = { mode: "choice" };
      if (values !== undefined) out.values = values;
      expectFindings(step(out), [at("output.missing_values", ".values")], `values ${JSON.stringify(values)}`);
    }
    expectFindings(step({ mode: "choice", options: ["a"], enum: ["a"] }), [at("output.missing_values", ".values")], "aliases are not read");
  });

  test("output.invalid_values: one per non-string element", () => {
    expectFindings(step({ mode: "choice", values: ["a", 1, null, "b", {}, ["c"], true] }), [1, 2, 4, 5, 6].map((k) => at("output.invalid_values", `.values[${k}]`)));
  });

  test("choice values may be empty, contain empty strings and duplicates", () => {
    expectValid(step({ mode: "choice", values: [] }));
    expectValid(step({ mode: "choice", values: ["", "", "x", "x"] }));
  });

  test("output.invalid_for_step: a parallel step whose valid mode is not array", () => {
    for (const mode of ["text", "object", "choice", "json"]) {
      const par = parallelStep("p");
      par.output = { mode, schema: { type: "object" }, values: ["a"] };
      expectFindings(withSteps([par]), ["$.steps[0].output.mode output.invalid_for_step"], mode);
    }
  });

  test("a parallel step with an invalid mode gets output.invalid only", () => {
    const par = parallelStep("p");
    par.output = { mode: "arrays" };
    expectFindings(withSteps([par]), ["$.steps[0].output output.invalid"]);
    const none = parallelStep("q");
    delete none.output;
    expectFindings(withSteps([none]), ["$.steps[0].output output.invalid"]);
  });

  test("every non-decision type needs an output", () => {
    const noOutput = (s: Record<string, unknown>) => { delete s.output; return s; };
    const steps = [
      noOutput(toolStep("t")),
      noOutput(codeRunStep("c", { needs: ["t"] })),
      noOutput(aiStep("a", { needs: ["c"] })),
    ];
    expectFindings(withSteps(steps), ["$.steps[0].output output.invalid", "$.steps[1].output output.invalid", "$.steps[2].output output.invalid"]);
  });
});

describe("decision.output_not_allowed (catalog 3.5)", () => {
  test("any output key on a decision, including null, and no other output check", () => {
    for (const v of [null, { mode: "text" }, "json", { mode: "bogus" }, { mode: "object" }, []]) {
      const doc = baseWorkflow();
      doc.steps.push(decisionStep("d", { default: "end" }, { needs: ["write"], output: v }));
      expectFindings(doc, ["$.steps[2].output decision.output_not_allowed"], `output ${JSON.stringify(v)}`);
    }
  });

  test("a decision without output is fine", () => {
    const doc = baseWorkflow();
    doc.steps.push(decisionStep("d", { default: "end" }, { needs: ["write"] }));
    expectValid(doc);
  });
});

describe("templates in with and input (catalog 3.6 source 1)", () => {
  test("object keys are never checked", () => {
    expectValid(withExtra(aiStep("v", { with: { model: "model-a", prompt: "x", "{{ key": { "}} also": "fine" } }, input: { "{{": 1 } })));
  });

  test("an input that is itself a string is checked at S.input", () => {
    expectFindings(withExtra(aiStep("v", { input: "{{ oops" })), ["$.steps[2].input expression.invalid"]);
    expectValid(withExtra(aiStep("v", { input: "{{ input.topic }}" })));
  });

  test("one finding per string, whatever is wrong in it", () => {
    expectFindings(withExtra(aiStep("v", { with: { model: "model-a", prompt: "{{ a; }} {{ new x }} {{ }}" } })), ["$.steps[2].with.prompt expression.invalid"]);
  });

  test("the grammar has no nesting limit of its own: 250 nested calls are a valid expression", () => {
    // Catalog 5.4/5.5: call := name "(" expr ")" at any depth. 250 levels is far from any stack limit.
    const nestedCall = (n: number) => `{{ ${"len(".repeat(n)}input.topic${")".repeat(n)} }}`;
    expectValid(withExtra(aiStep("v", { with: { model: "model-a", prompt: nestedCall(150) } })), "150 levels");
    expectValid(withExtra(aiStep("v", { with: { model: "model-a", prompt: nestedCall(250) } })), "250 levels");
  });

  test("{{{ x }}} is accepted: the leftover single braces are plain text", () => {
    expectValid(withExtra(aiStep("v", { with: { model: "model-a", prompt: "{{{ input.topic }}}" } })));
  });

  test("paths are not escaped: keys with dots, spaces and brackets (quirk 9.5)", () => {
    expectFindings(withExtra(aiStep("v", { with: { model: "model-a", prompt: "x", "my key": { "a.b": ["ok", { "c[0]": "{{ bad" }] } } })), [
      "$.steps[2].with.my key.a.b[1].c[0] expression.invalid",
    ]);
  });
});

describe("ai.generate and tool.call (catalog 3.7)", () => {
  test("model.missing at S.with.model, even when with is missing or not an object", () => {
    for (const w of [undefined, null, "model-a", [], {}, { model: "" }, { model: 5 }, { model: null }]) {
      const step = aiStep("v");
      if (w === undefined) delete step.with; else step.with = w;
      expectFindings(withExtra(step), ["$.steps[2].with.model model.missing"], JSON.stringify(w));
    }
  });

  test("model.disallowed: exact, case-sensitive match against permissions.models", () => {
    for (const model of ["MODEL-A", "model-a ", "model", "search"]) {
      expectFindings(withExtra(aiStep("v", { with: { model } })), ["$.steps[2].with.model model.disallowed"], model);
    }
  });

  test("tool.missing and tool.disallowed at S.with.tool", () => {
    for (const w of [undefined, null, "search", {}, { tool: "" }, { tool: ["search"] }]) {
      const step = toolStep("v");
      if (w === undefined) delete step.with; else step.with = w;
      expectFindings(withExtra(step), ["$.steps[2].with.tool tool.missing"], JSON.stringify(w));
    }
    expectFindings(withExtra(toolStep("v", { with: { tool: "Search" } })), ["$.steps[2].with.tool tool.disallowed"]);
    expectFindings(withExtra(toolStep("v", { with: { tool: "model-a" } })), ["$.steps[2].with.tool tool.disallowed"]);
  });
});

// parallel steps (catalog 3.11, 4 parallel, 9.10): with rules, fan-in, outputStep, body, envelope,
// `item` only in bodies.
import { describe, test } from "node:test";
import {
  type Json, aiStep, decisionStep, expectFindings, expectValid, fanInOutput, parallelStep, toolStep, withSteps,
} from "./lwir-fixtures";

const P = "$.steps[0]";
const W = `${P}.with`;

/** A one-step workflow: the parallel step, after `patch` changed it. */
function doc(patch: (s: Json) => void): Json {
  const step = parallelStep("fan");
  patch(step);
  return withSteps([step]);
}
const setWith = (key: string, value: unknown) => doc((s) => { if (value === undefined) delete s.with[key]; else s.with[key] = value; });

describe("a valid parallel step", () => {
  test("the fixture", () => {
    expectValid(doc(() => undefined));
  });

  test("all_settled, itemKey order, outputStep, the minimal envelope from the catalog", () => {
    expectValid(doc((s) => {
      s.with.failureMode = "all_settled";
      s.with.fanIn = { order: "itemKey", output: "array", outputStep: "fan-one" };
      s.with.maxBranches = 100;
      s.with.maxConcurrency = 100;
    }));
    expectValid(doc((s) => { s.with.maxBranches = 1; s.with.maxConcurrency = 1; }));
  });

  test("unknown with keys are ignored and not template-checked", () => {
    expectValid(doc((s) => { s.with.note = "{{ broken"; s.with.retry = { x: "}}" }; }));
  });

  test("items may read a needed step; itemKey may use item anywhere in its expression", () => {
    const par = parallelStep("fan", undefined, { needs: ["src"] });
    par.with.items = "{{ steps.src.output.list }}";
    for (const itemKey of ["{{ item.id }}", "{{ item }}", "{{ lower(item.name) }}", "{{ coalesce(item.id, 'x') }}", "{{ sha256(input.topic, item) }}", "{{ item['id'] }}", "{{ json(item) }}"]) {
      par.with.itemKey = itemKey;
      expectValid(withSteps([toolStep("src"), par]), itemKey);
    }
  });
});

describe("parallel.invalid: with not an object hides the body (9.10)", () => {
  for (const [name, w] of [["missing", undefined], ["null", null], ["string", "{{ input.list }}"], ["array", []], ["number", 4]] as Array<[string, unknown]>) {
    test(name, () => {
      const step = parallelStep("fan", ["not a step", { id: "bad.id" }, aiStep("x", { output: null })]);
      if (w === undefined) delete step.with; else step.with = w;
      expectFindings(withSteps([step]), [`${W} parallel.invalid`]);
    });
  }

  test("no parallel.missing_steps either", () => {
    expectFindings(doc((s) => { s.with = "x"; delete s.steps; }), [`${W} parallel.invalid`]);
  });

  test("the output checks still run", () => {
    expectFindings(doc((s) => { s.with = null; s.output = { mode: "text" }; }), [`${W} parallel.invalid`, `${P}.output.mode output.invalid_for_step`]);
    expectFindings(doc((s) => { s.with = null; s.output.schema.items = { type: "object" }; }), [`${W} parallel.invalid`, `${P}.output.schema.items parallel.invalid_fan_in`]);
    expectFindings(doc((s) => { s.with = null; delete s.output; }), [`${W} parallel.invalid`, `${P}.output output.invalid`]);
  });

  test("other step checks still run", () => {
    expectFindings(doc((s) => { s.with = []; s.maxVisits = 0; s.cache = 1; s.input = { a: "{{ x" }; }), [
      `${W} parallel.invalid`,
      `${P}.maxVisits step.max_visits_out_of_range`,
      `${P}.cache schema.unimplemented_field`,
      `${P}.input.a expression.invalid`,
    ]);
  });
});

describe("parallel.invalid_items", () => {
  const bad: unknown[] = [undefined, null, 5, ["a"], { from: "input.list" }, "input.list", "{{ input.list }} ", " {{ input.list }}", "x {{ input.list }}",
    "{{ input.a }}{{ input.b }}", "{{ input.list", "{{ }}", "{{ input.list; }}", "{{ steps[0].output }}", "{{ item.children }}", "{{ input.list.map(x) }}"];
  for (const v of bad) {
    test(`items ${JSON.stringify(v)}`, () => {
      expectFindings(setWith("items", v), [`${W}.items parallel.invalid_items`]);
    });
  }

  test("item is allowed in items only when the parallel step is itself in a body", () => {
    const inner = parallelStep("inner");
    inner.with.items = "{{ item.children }}";
    expectFindings(withSteps([parallelStep("outer", [inner])]), [`${P}.steps[0].uses parallel.nested_unsupported`]);
  });

  test("references in any with string of a parallel step count (though the strings are not template-checked)", () => {
    const par = parallelStep("fan");
    par.with.note = "{{ steps.ghost.output }}";
    par.with.more = { x: "{{ steps.src.output }}" };
    expectFindings(withSteps([toolStep("src"), par, aiStep("z", { needs: ["src", "fan"] })]), [
      "$.steps[1].with.note step.missing_dependency",
      "$.steps[1].with.more.x step.undeclared_dependency",
    ]);
  });

  test("items reading a step not in needs: undeclared, not invalid_items", () => {
    const par = parallelStep("fan");
    par.with.items = "{{ steps.src.output }}";
    expectFindings(withSteps([toolStep("src"), par, aiStep("z", { needs: ["src", "fan"] })]), ["$.steps[1].with.items step.undeclared_dependency"]);
  });
});

describe("parallel.invalid_item_key", () => {
  const bad: unknown[] = [undefined, null, 1, ["{{ item }}"], "{{ input.id }}", "{{ item.id }} ", "key-{{ item.id }}", "{{ item.a }}{{ item.b }}",
    "{{ 'item' }}", "{{ input.item }}", "{{ items }}", "{{ item_id }}", "item.id", "{{ item.id", "{{ item.; }}", "{{ input.x.item }}"];
  for (const v of bad) {
    test(`itemKey ${JSON.stringify(v)}`, () => {
      expectFindings(setWith("itemKey", v), [`${W}.itemKey parallel.invalid_item_key`]);
    });
  }
});

describe("parallel.invalid_cardinality (path names .kind even when cardinality is missing)", () => {
  for (const v of [undefined, null, "matches_items", {}, { kind: "fixed" }, { kind: "MATCHES_ITEMS" }, { Kind: "matches_items" }, [{ kind: "matches_items" }], { kind: null }]) {
    test(JSON.stringify(v) ?? "missing", () => {
      expectFindings(setWith("cardinality", v), [`${W}.cardinality.kind parallel.invalid_cardinality`]);
    });
  }
  test("extra keys beside kind are fine", () => {
    expectValid(setWith("cardinality", { kind: "matches_items", count: 3 }));
  });
});

describe("parallel.invalid_branches and parallel.invalid_concurrency", () => {
  test("maxBranches not an integer from 1 to 100", () => {
    // maxConcurrency 1 keeps the concurrency rule out of the way when maxBranches is an integer.
    for (const v of [undefined, 101, 2.5, "10", null, true, 1e3]) {
      expectFindings(doc((s) => { s.with.maxConcurrency = 1; if (v === undefined) delete s.with.maxBranches; else s.with.maxBranches = v; }), [`${W}.maxBranches parallel.invalid_branches`], JSON.stringify(v));
    }
  });

  test("maxConcurrency not an integer >= 1", () => {
    for (const v of [undefined, 0, -1, 1.5, "2", null, false]) {
      expectFindings(setWith("maxConcurrency", v), [`${W}.maxConcurrency parallel.invalid_concurrency`], JSON.stringify(v));
    }
  });

  test("maxConcurrency above an integer maxBranches", () => {
    expectFindings(doc((s) => { s.with.maxBranches = 3; s.with.maxConcurrency = 4; }), [`${W}.maxConcurrency parallel.invalid_concurrency`]);
    expectValid(doc((s) => { s.with.maxBranches = 3; s.with.maxConcurrency = 3; }));
  });

  test("an integer maxBranches above 100 still bounds maxConcurrency", () => {
    expectFindings(doc((s) => { s.with.maxBranches = 150; s.with.maxConcurrency = 151; }), [`${W}.maxBranches parallel.invalid_branches`, `${W}.maxConcurrency parallel.invalid_concurrency`]);
    expectFindings(doc((s) => { s.with.maxBranches = 150; s.with.maxConcurrency = 150; }), [`${W}.maxBranches parallel.invalid_branches`]);
    // Integers below 1 bound it too: any valid maxConcurrency exceeds them.
    expectFindings(doc((s) => { s.with.maxBranches = 0; s.with.maxConcurrency = 1; }), [`${W}.maxBranches parallel.invalid_branches`, `${W}.maxConcurrency parallel.invalid_concurrency`]);
    expectFindings(doc((s) => { s.with.maxBranches = -5; s.with.maxConcurrency = 1; }), [`${W}.maxBranches parallel.invalid_branches`, `${W}.maxConcurrency parallel.invalid_concurrency`]);
  });

  test("a non-integer maxBranches sets no upper bound", () => {
    expectFindings(doc((s) => { s.with.maxBranches = "10"; s.with.maxConcurrency = 500; }), [`${W}.maxBranches parallel.invalid_branches`]);
    expectFindings(doc((s) => { delete s.with.maxBranches; s.with.maxConcurrency = 1000; }), [`${W}.maxBranches parallel.invalid_branches`]);
    expectFindings(doc((s) => { s.with.maxBranches = 10.5; s.with.maxConcurrency = 11; }), [`${W}.maxBranches parallel.invalid_branches`]);
  });
});

describe("parallel.invalid_failure_mode", () => {
  for (const v of [undefined, null, "FAIL_FAST", "fail-fast", "continue", "", 0]) {
    test(JSON.stringify(v) ?? "missing", () => {
      expectFindings(setWith("failureMode", v), [`${W}.failureMode parallel.invalid_failure_mode`]);
    });
  }
});

describe("parallel.invalid_fan_in on with.fanIn", () => {
  test("fanIn not an object", () => {
    for (const v of [undefined, null, "array", [], [{ order: "input", output: "array" }], 1]) {
      expectFindings(setWith("fanIn", v), [`${W}.fanIn parallel.invalid_fan_in`], JSON.stringify(v));
    }
  });

  test("order and output", () => {
    expectFindings(setWith("fanIn", {}), [`${W}.fanIn.order parallel.invalid_fan_in`, `${W}.fanIn.output parallel.invalid_fan_in`]);
    expectFindings(setWith("fanIn", { order: "output", output: "array" }), [`${W}.fanIn.order parallel.invalid_fan_in`]);
    expectFindings(setWith("fanIn", { order: "Input", output: "array" }), [`${W}.fanIn.order parallel.invalid_fan_in`]);
    expectFindings(setWith("fanIn", { order: "input", output: "object" }), [`${W}.fanIn.output parallel.invalid_fan_in`]);
    expectFindings(setWith("fanIn", { order: "itemKey", output: null }), [`${W}.fanIn.output parallel.invalid_fan_in`]);
    expectValid(setWith("fanIn", { order: "itemKey", output: "array", merge: "deep" }));
  });
});

describe("parallel.fan_in_output_step_invalid", () => {
  const withOutputStep = (outputStep: unknown, body?: Json[]) => doc((s) => {
    if (body) s.steps = body;
    s.with.fanIn = { order: "input", output: "array", outputStep };
  });
  const at = `${W}.fanIn.outputStep parallel.fan_in_output_step_invalid`;

  test("naming no body step (null included)", () => {
    for (const v of ["ghost", null, "", 3, "fan", "FAN-ONE"]) {
      expectFindings(withOutputStep(v), [at], JSON.stringify(v));
    }
  });

  test("naming a top-level step is not enough", () => {
    const par = parallelStep("fan", undefined, { needs: ["src"] });
    par.with.fanIn = { order: "input", output: "array", outputStep: "src" };
    expectFindings(withSteps([toolStep("src"), par]), [`$.steps[1].with.fanIn.outputStep parallel.fan_in_output_step_invalid`]);
  });

  test("naming a decision body step", () => {
    const body = [aiStep("one", { with: { model: "model-a", prompt: "{{ item }}" } }), decisionStep("route", { default: "end" }, { needs: ["one"] })];
    expectFindings(withOutputStep("route", body), [at]);
    expectValid(withOutputStep("one", body));
  });

  test("the first matching element decides", () => {
    const decisionFirst = [decisionStep("x", { default: "end" }), aiStep("x", { with: { model: "model-a", prompt: "{{ item }}" } })];
    expectFindings(withOutputStep("x", decisionFirst), [at, `${P}.steps[1].id step.duplicate_id`]);
    const aiFirst = [aiStep("x", { with: { model: "model-a", prompt: "{{ item }}" } }), decisionStep("x", { default: "end" })];
    expectFindings(withOutputStep("x", aiFirst), [`${P}.steps[1].id step.duplicate_id`]);
  });

  test("ids that failed the id rules still match", () => {
    const body = [aiStep("odd.id", { with: { model: "model-a", prompt: "{{ item }}" } })];
    expectFindings(withOutputStep("odd.id", body), [`${P}.steps[0].id step.invalid_id`]);
  });

  test("non-object body elements never match", () => {
    expectFindings(withOutputStep("fan-one", ["fan-one", aiStep("fan-one", { with: { model: "model-a", prompt: "{{ item }}" } })]), [`${P}.steps[0] step.invalid`]);
    expectFindings(withOutputStep("solo", ["solo"]), [at, `${P}.steps[0] step.invalid`]);
  });

  test("no body: both missing_steps and the outputStep finding", () => {
    expectFindings(doc((s) => { delete s.steps; s.with.fanIn.outputStep = "w"; }), [`${P}.steps parallel.missing_steps`, at]);
  });

  test("only checked when fanIn is an object", () => {
    expectFindings(setWith("fanIn", "outputStep"), [`${W}.fanIn parallel.invalid_fan_in`]);
  });
});

describe("parallel.missing_steps and the body list", () => {
  test("steps missing, empty or not an array", () => {
    for (const v of [undefined, [], null, "fan-one", { a: aiStep("a") }]) {
      expectFindings(doc((s) => { if (v === undefined) delete s.steps; else s.steps = v; }), [`${P}.steps parallel.missing_steps`], JSON.stringify(v));
    }
  });

  test("body steps are validated like any list, with item allowed", () => {
    const body = [
      aiStep("one", { with: { model: "model-a", prompt: "{{ item.title }}" }, input: { k: "{{ item }}" } }),
      toolStep("two", { needs: ["one"], with: { tool: "nope", args: { id: "{{ item.id }}" } } }),
      aiStep("one"),
      aiStep("three", { needs: ["ghost"], output: { mode: "object" } }),
    ];
    expectFindings(doc((s) => { s.steps = body; }), [
      `${P}.steps[1].with.tool tool.disallowed`,
      `${P}.steps[2].id step.duplicate_id`,
      `${P}.steps[3].needs[0] step.missing_dependency`,
      `${P}.steps[3].output.schema output.missing_schema`,
    ]);
  });

  test("the body's model and tool allow-lists are the document's", () => {
    const body = [aiStep("one", { with: { model: "model-b", prompt: "{{ item }}" } }), toolStep("two", { with: { tool: "fetch" } })];
    expectValid(doc((s) => { s.steps = body; }));
  });
});

describe("item: allowed in bodies only", () => {
  test("a top-level step using item in with or input", () => {
    expectFindings(withSteps([aiStep("a", { with: { model: "model-a", prompt: "Handle {{ item }}" } })]), ["$.steps[0].with.prompt expression.invalid"]);
    expectFindings(withSteps([toolStep("a", { input: { x: ["{{ item.id }}"] } })]), ["$.steps[0].input.x[0] expression.invalid"]);
    expectFindings(withSteps([aiStep("a", { with: { model: "model-a", prompt: "{{ sha256(item) }} {{ item == null }}" } })]), ["$.steps[0].with.prompt expression.invalid"]);
  });

  test("names that merely contain item are fine at the top level", () => {
    expectValid(withSteps([aiStep("a", { with: { model: "model-a", prompt: "{{ input.item }} {{ input.items }} {{ input.item_count }} {{ coalesce(input.a, 'item') }}" } })]));
  });

  test("anywhere inside a body (with, input, nested values)", () => {
    const body = [toolStep("one", { with: { tool: "search", args: { list: ["{{ item }}", { k: "{{ item.k }}" }] } }, input: { i: "{{ item }}" } })];
    expectValid(doc((s) => { s.steps = body; }));
  });

  test("a top-level parallel step's own input may not use item", () => {
    expectFindings(doc((s) => { s.input = { x: "{{ item }}" }; }), [`${P}.input.x expression.invalid`]);
  });
});

describe("parallel output and the fan-in envelope", () => {
  const items = (patch: (items: Json) => void) => doc((s) => { patch(s.output.schema.items); });
  const atItems = `${P}.output.schema.items parallel.invalid_fan_in`;

  test("schema missing: output.missing_schema and parallel.invalid_fan_in at the same path", () => {
    expectFindings(doc((s) => { delete s.output.schema; }), [`${P}.output.schema output.missing_schema`, `${P}.output.schema parallel.invalid_fan_in`]);
  });

  test("boolean schemas are valid schemas but not envelopes", () => {
    for (const v of [true, false]) {
      expectFindings(doc((s) => { s.output.schema = v; }), [`${P}.output.schema parallel.invalid_fan_in`], String(v));
    }
  });

  test("items missing or not an object", () => {
    expectFindings(items((i) => { for (const k of Object.keys(i)) delete i[k]; }), [atItems]);
    expectFindings(doc((s) => { delete s.output.schema.items; }), [atItems]);
    expectFindings(doc((s) => { s.output.schema.items = true; }), [atItems]);
  });

  test("items type must be absent, object, or an array containing object", () => {
    expectValid(items((i) => { delete i.type; }));
    expectFindings(items((i) => { i.type = "string"; }), [atItems]);
    // A type array naming object is an envelope but breaks the schema subset.
    expectFindings(items((i) => { i.type = ["object", "null"]; }), [`${P}.output.schema schema.invalid`]);
  });

  test("required must list itemKey, status and artifacts", () => {
    for (const drop of ["itemKey", "status", "artifacts"]) {
      expectFindings(items((i) => { i.required = i.required.filter((k: string) => k !== drop); }), [atItems], drop);
    }
    expectFindings(items((i) => { delete i.required; }), [atItems]);
    expectValid(items((i) => { i.required = ["itemKey", "status", "artifacts", "output"]; }));
  });

  test("properties must have itemKey, status and artifacts", () => {
    for (const drop of ["itemKey", "status", "artifacts"]) {
      // The required key left without a property also breaks the schema subset.
      expectFindings(items((i) => { delete i.properties[drop]; }), [atItems, `${P}.output.schema schema.invalid`], drop);
    }
  });

  test("properties need at least one of output, outputRef, error", () => {
    expectFindings(items((i) => { delete i.properties.output; }), [atItems]);
    expectValid(items((i) => { delete i.properties.output; i.properties.outputRef = { type: "string" }; }));
    expectValid(items((i) => { delete i.properties.output; i.properties.error = { type: "object" }; }));
    expectValid(items((i) => { i.properties.outputRef = { type: "string" }; i.properties.error = true; }));
  });

  test("the envelope is not checked when the mode is not array", () => {
    expectFindings(doc((s) => { s.output = { mode: "json", schema: { type: "object" } }; }), [`${P}.output.mode output.invalid_for_step`]);
  });

  test("the catalog's minimal output is the fixture's", () => {
    expectValid(doc((s) => { s.output = fanInOutput(); }));
  });
});

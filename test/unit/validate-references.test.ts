// References, dependencies and graph rules (catalog 3.4, 5.8, 9.3, 9.4, 9.7): step.missing_dependency,
// step.undeclared_dependency and the lastOutput/allVisits back-edge exemption, output.missing_schema
// (reference form), lwir.output_ambiguous_for_multi_visit, lwir.decision_target_referenced_by_needs,
// lwir.invalid_cycle.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  type Json, aiStep, decisionStep, expectFindings, expectValid, parallelStep, toolStep, validate, withSteps,
} from "./lwir-fixtures";

/** ai.generate step whose prompt is `prompt`. */
function reader(id: string, prompt: string, extra: Json = {}): Json {
  return aiStep(id, { with: { model: "model-a", prompt }, ...extra });
}

/** a → b → c chain; c is the only terminal. */
function chain(c: Json = reader("c", "{{ steps.b.output }}", { needs: ["b"] })): Json[] {
  return [toolStep("a"), reader("b", "{{ steps.a.output }}", { needs: ["a"] }), c];
}

/** The draft → critique → gate loop (all members maxVisits 3); valid as built. */
function loop(over: { draft?: Json; critique?: Json; gate?: Json } = {}): Json[] {
  return [
    reader("draft", "Improve using {{ steps.critique.lastOutput }}", { maxVisits: 3, ...over.draft }),
    reader("critique", "Critique {{ steps.draft.lastOutput }}", { needs: ["draft"], maxVisits: 3, ...over.critique }),
    decisionStep("gate", { cases: [{ when: "{{ steps.critique.lastOutput == 'ok' }}", to: "end" }], default: "draft" }, { needs: ["critique"], maxVisits: 3, ...over.gate }),
  ];
}

describe("step.missing_dependency, needs form (catalog 3.4, quirk 9.3)", () => {
  test("a needs entry naming no step", () => {
    expectFindings(withSteps(chain(reader("c", "{{ steps.b.output }}", { needs: ["b", "ghost"] }))), ["$.steps[2].needs[1] step.missing_dependency"]);
  });

  test("the index counts valid entries only", () => {
    expectFindings(withSteps(chain(reader("c", "{{ steps.b.output }}", { needs: ["", "b", 5, "ghost"] }))), [
      "$.steps[2].needs[0] step.invalid_needs",
      "$.steps[2].needs[2] step.invalid_needs",
      "$.steps[2].needs[1] step.missing_dependency",
    ]);
    // The catalog's own example: needs ["", "ghost"] reports both at needs[0].
    expectFindings(withSteps([aiStep("a", { needs: ["", "ghost"] })]), ["$.steps[0].needs[0] step.invalid_needs", "$.steps[0].needs[0] step.missing_dependency"]);
  });

  test("every missing entry is reported, repeated ones too", () => {
    expectFindings(withSteps([aiStep("a", { needs: ["x", "x", "y"] })]), [
      "$.steps[0].needs[0] step.missing_dependency",
      "$.steps[0].needs[1] step.missing_dependency",
      "$.steps[0].needs[2] step.missing_dependency",
    ]);
  });

  test("needing an invalid-id step or a body step is a missing dependency", () => {
    const par = parallelStep("fan");
    expectFindings(withSteps([toolStep("a.b"), par, aiStep("z", { needs: ["fan", "fan-one", "a.b"] })]), [
      "$.steps[0].id step.invalid_id",
      "$.steps[2].needs[1] step.missing_dependency",
      "$.steps[2].needs[2] step.missing_dependency",
    ]);
  });

  test("ids are matched exactly", () => {
    expectFindings(withSteps([toolStep("Gather"), aiStep("z", { needs: ["gather", "Gather "] })]), [
      "$.steps[1].needs[0] step.missing_dependency",
      "$.steps[1].needs[1] step.missing_dependency",
      "$.steps terminal.ambiguous",
    ]);
  });
});

describe("step.missing_dependency, reference form (catalog 3.4)", () => {
  test("one per reference, at the string's path, no other check for it", () => {
    expectFindings(withSteps(chain(reader("c", "{{ steps.ghost.output }} and {{ steps.ghost.lastOutput }}", { needs: ["b"] }))), [
      "$.steps[2].with.prompt step.missing_dependency",
      "$.steps[2].with.prompt step.missing_dependency",
    ]);
  });

  test("in input, in nested with values, in decision when, in parallel items", () => {
    const d = decisionStep("d", { cases: [{ when: "{{ steps.nobody.output }}", to: "end" }], default: "end" }, { needs: ["c"] });
    const par = parallelStep("p", undefined, { needs: ["c"] });
    par.with.items = "{{ steps.missing.output.list }}";
    const c = reader("c", "ok", { needs: ["b"], input: { prior: "{{ steps.none }}", list: ["x", { deep: "{{ coalesce(steps.zz.output, input.topic) }}" }] } });
    expectFindings(withSteps([...chain(c), d, par]), [
      "$.steps[2].input.prior step.missing_dependency",
      "$.steps[2].input.list[1].deep step.missing_dependency",
      "$.steps[3].with.cases[0].when step.missing_dependency",
      "$.steps[4].with.items step.missing_dependency",
    ]);
  });

  test("a top-level step reading a body step", () => {
    const par = parallelStep("fan");
    expectFindings(withSteps([par, reader("z", "{{ steps.fan-one.output }}", { needs: ["fan"] })]), ["$.steps[1].with.prompt step.missing_dependency"]);
  });

  test("a body step reading a top-level step its parallel step does not need", () => {
    const body = [reader("one", "{{ item }} {{ steps.src.output }}", { needs: ["src"] })];
    expectFindings(withSteps([toolStep("src"), { ...parallelStep("fan", body) }, aiStep("z", { needs: ["src", "fan"] })]), [
      "$.steps[1].steps[0].needs[0] step.missing_dependency",
      "$.steps[1].steps[0].with.prompt step.missing_dependency",
    ]);
  });

  test("bracket references and both quote styles", () => {
    expectFindings(withSteps(chain(reader("c", `{{ steps["b"].output }} {{ steps['a'].output }} {{ steps["gh ost"].output }}`, { needs: ["b"] }))), [
      "$.steps[2].with.prompt step.undeclared_dependency",
      "$.steps[2].with.prompt step.missing_dependency",
    ]);
  });

  test("an unsafe expression still yields its references (5.8)", () => {
    expectFindings(withSteps([reader("w", "{{ steps.ghost.output; }}")]), ["$.steps[0].with.prompt expression.invalid", "$.steps[0].with.prompt step.missing_dependency"]);
  });

  test("an unscannable (malformed) string yields no references", () => {
    expectFindings(withSteps([reader("w", "{{ steps.ghost.output }")]), ["$.steps[0].with.prompt expression.invalid"]);
    expectFindings(withSteps([reader("w", "{{ steps.ghost.output }} }}")]), ["$.steps[0].with.prompt expression.invalid"]);
  });

  test("text inside string literals and text outside templates is never a reference", () => {
    expectValid(withSteps([reader("w", `steps.ghost.output {{ coalesce(input.topic, "steps.ghost.output", 'steps.x') }}`)]));
  });

  test("decision `with` strings other than when are not template-checked but their references count", () => {
    const d = decisionStep("d", { default: "end", note: "{{ steps.phantom.output }}", junk: "{{ broken" }, { needs: ["a"] });
    expectFindings(withSteps([toolStep("a"), d]), ["$.steps[1].with.note step.missing_dependency"]);
  });
});

describe("reference extraction details (catalog 5.8)", () => {
  const c = (prompt: string) => withSteps(chain(reader("c", prompt, { needs: ["b"] })));

  test("every body of an unsafe string yields references, also after the failing body", () => {
    expectFindings(c("{{ new x }} {{ steps.ghost.output }}"), ["$.steps[2].with.prompt expression.invalid", "$.steps[2].with.prompt step.missing_dependency"]);
    expectFindings(c("{{ steps.g1.output; }} {{ steps.g2.output }}"), [
      "$.steps[2].with.prompt expression.invalid",
      "$.steps[2].with.prompt step.missing_dependency",
      "$.steps[2].with.prompt step.missing_dependency",
    ]);
  });

  test("several references in one body, inside calls and comparisons", () => {
    expectFindings(c("{{ coalesce(steps.g1.output, steps.a.output) == steps.b.output }}"), [
      "$.steps[2].with.prompt step.missing_dependency",
      "$.steps[2].with.prompt step.undeclared_dependency",
    ]);
  });

  test("forbidden names in the bracket form are not references", () => {
    expectFindings(c("{{ steps['constructor'].output }}"), ["$.steps[2].with.prompt expression.invalid"]);
    expectFindings(c("{{ steps[\"__proto__\"] }}"), ["$.steps[2].with.prompt expression.invalid"]);
  });

  test("forbidden names make no reference in the dot form either; other reserved words still do", () => {
    expectFindings(c("{{ steps.constructor.output }}"), ["$.steps[2].with.prompt expression.invalid"]);
    expectFindings(c("{{ steps.new.output }}"), ["$.steps[2].with.prompt expression.invalid", "$.steps[2].with.prompt step.missing_dependency"]);
  });

  test("an id that is not a dot-form segment is not a reference", () => {
    expectFindings(c("{{ steps.étape.output }}"), ["$.steps[2].with.prompt expression.invalid"]);
    expectFindings(c("{{ steps.0a.output }}"), ["$.steps[2].with.prompt expression.invalid"]);
  });

  test("`steps` alone, or followed by another word, is no reference", () => {
    expectValid(c("{{ steps }} {{ input.stepsX.a }} {{ len(steps) }}"));
  });

  test("string literals with escaped quotes are skipped", () => {
    expectValid(c("{{ coalesce(input.x, 'it\\'s steps.ghost') }} {{ coalesce(input.y, \"say \\\"steps.g2\\\"\") }}"));
  });

  test("the property is the segment right after the id: a bracket property is not `output`", () => {
    const multi = (prompt: string) => withSteps([toolStep("a", { maxVisits: 3 }), reader("r", prompt, { needs: ["a"] })]);
    expectValid(multi("{{ steps.a['output'] }}"));
    expectFindings(multi("{{ steps['a'].output }}"), ["$.steps[1].with.prompt lwir.output_ambiguous_for_multi_visit"]);
  });

  test("a bracket lastOutput is not exempt over a back-edge", () => {
    expectFindings(withSteps(loop({ draft: { with: { model: "model-a", prompt: "{{ steps.critique['lastOutput'] }}" } } })), ["$.steps[0].with.prompt step.undeclared_dependency"]);
  });

  test("a step with an invalid id cannot be read, even through the bracket form", () => {
    expectFindings(withSteps([toolStep("a.b"), reader("r", "{{ steps['a.b'].output }}", { needs: ["a.b"] })]), [
      "$.steps[0].id step.invalid_id",
      "$.steps[1].needs[0] step.missing_dependency",
      "$.steps[1].with.prompt step.missing_dependency",
    ]);
  });

  test("undeclared, ambiguous and schema-less all at once", () => {
    const steps = [toolStep("a", { maxVisits: 3, output: { mode: "json" } }), reader("r", "{{ steps.a.output }}"), aiStep("z", { needs: ["a", "r"] })];
    expectFindings(withSteps(steps), [
      "$.steps[0].output.schema output.missing_schema",
      "$.steps[1].with.prompt lwir.output_ambiguous_for_multi_visit",
      "$.steps[1].with.prompt step.undeclared_dependency",
    ]);
  });

  test("hyphenated ids in the dot form", () => {
    expectValid(withSteps([toolStep("fetch-page-2"), reader("r", "{{ steps.fetch-page-2.output }}", { needs: ["fetch-page-2"] })]));
    expectFindings(withSteps([toolStep("fetch-page-2"), reader("r", "{{ steps.fetch-page-2.output }}", { needs: ["fetch-page-2"] }), reader("s", "{{ steps.fetch-page.output }}", { needs: ["r"] })]), [
      "$.steps[2].with.prompt step.missing_dependency",
    ]);
  });
});

describe("quirk 9.4: `.steps.` and `-steps.` after another name are step references", () => {
  test("input.steps.x reads step x", () => {
    expectFindings(withSteps(chain(reader("c", "{{ input.steps.a.output }}", { needs: ["b"] }))), ["$.steps[2].with.prompt step.undeclared_dependency"]);
    expectFindings(withSteps(chain(reader("c", "{{ input.steps.ghost }}", { needs: ["b"] }))), ["$.steps[2].with.prompt step.missing_dependency"]);
    expectValid(withSteps(chain(reader("c", "{{ input.steps.b }}", { needs: ["b"] }))));
  });

  test("foo-steps.x reads step x", () => {
    expectFindings(withSteps(chain(reader("c", "{{ input.pre-steps.ghost }}", { needs: ["b"] }))), ["$.steps[2].with.prompt step.missing_dependency"]);
  });

  test("a letter, digit, _ or $ before `steps` is not a boundary", () => {
    expectValid(withSteps(chain(reader("c", "{{ input.xsteps.ghost }} {{ input.my_steps.ghost }} {{ input.$steps.ghost }} {{ input.s2steps.ghost }}", { needs: ["b"] }))));
  });
});

describe("step.undeclared_dependency (catalog 3.4)", () => {
  test("a reference to a local step missing from needs, one per reference", () => {
    expectFindings(withSteps(chain(reader("c", "{{ steps.a.output }} {{ steps.a.output.x }}", { needs: ["b"] }))), [
      "$.steps[2].with.prompt step.undeclared_dependency",
      "$.steps[2].with.prompt step.undeclared_dependency",
    ]);
  });

  test("any property counts, and a bare steps.X", () => {
    expectFindings(withSteps(chain(reader("c", "{{ steps.a }}", { needs: ["b"] }))), ["$.steps[2].with.prompt step.undeclared_dependency"]);
    expectFindings(withSteps(chain(reader("c", "{{ steps.a.status }}", { needs: ["b"] }))), ["$.steps[2].with.prompt step.undeclared_dependency"]);
  });

  test("references in input and in with of every type", () => {
    const c = toolStep("c", { needs: ["b"], with: { tool: "search", args: { q: "{{ steps.a.output }}" } }, input: { x: ["{{ steps.a.output }}"] } });
    expectFindings(withSteps(chain(c)), ["$.steps[2].with.args.q step.undeclared_dependency", "$.steps[2].input.x[0] step.undeclared_dependency"]);
  });

  test("a decision's when reads need declaring", () => {
    const d = decisionStep("d", { cases: [{ when: "{{ steps.a.output == 'x' }}", to: "end" }], default: "end" }, { needs: ["c"] });
    expectFindings(withSteps([...chain(), d]), ["$.steps[3].with.cases[0].when step.undeclared_dependency"]);
  });

  test("a parallel step's items reads need declaring", () => {
    const par = parallelStep("p");
    par.with.items = "{{ steps.c.output }}";
    expectFindings(withSteps([...chain(), par]), ["$.steps[3].with.items step.undeclared_dependency", "$.steps terminal.ambiguous"]);
    expectValid(withSteps([...chain(), { ...par, needs: ["c"] }]));
  });

  test("a needs entry is enough even when the flow runs the other way", () => {
    expectValid(withSteps(chain()));
  });
});

describe("lastOutput / allVisits back-edge exemption (catalog 3.4, 8)", () => {
  test("the loop is valid as built", () => {
    expectValid(withSteps(loop()));
  });

  test("allVisits is exempt too", () => {
    expectValid(withSteps(loop({ draft: { with: { model: "model-a", prompt: "{{ steps.critique.allVisits }}" } } })));
  });

  test("`.output` over the back-edge is not exempt (and is ambiguous on a multi-visit step)", () => {
    expectFindings(withSteps(loop({ draft: { with: { model: "model-a", prompt: "{{ steps.critique.output }}" } } })), [
      "$.steps[0].with.prompt step.undeclared_dependency",
      "$.steps[0].with.prompt lwir.output_ambiguous_for_multi_visit",
    ]);
  });

  test("other properties over the back-edge are not exempt", () => {
    for (const prop of ["lastoutput", "allvisits", "LastOutput", "visits"]) {
      expectFindings(withSteps(loop({ draft: { with: { model: "model-a", prompt: `{{ steps.critique.${prop} }}` } } })), ["$.steps[0].with.prompt step.undeclared_dependency"], prop);
    }
    expectFindings(withSteps(loop({ draft: { with: { model: "model-a", prompt: "{{ steps.critique }}" } } })), ["$.steps[0].with.prompt step.undeclared_dependency"], "bare");
  });

  test("no path from the read step to the reader: not exempt", () => {
    // The decision no longer loops back, so critique cannot reach draft.
    const gate = decisionStep("gate", { default: "end" }, { needs: ["critique"], maxVisits: 3 });
    expectFindings(withSteps(loop({ gate: { with: gate.with } })), ["$.steps[0].with.prompt step.undeclared_dependency"]);
  });

  test("a lastOutput read of a later, unconnected step is not exempt", () => {
    expectFindings(withSteps([reader("x", "{{ steps.y.lastOutput }}"), toolStep("y", { needs: ["x"] }), reader("z", "{{ steps.x.allVisits }}")]), [
      "$.steps[0].with.prompt step.undeclared_dependency",
      "$.steps[2].with.prompt step.undeclared_dependency",
      "$.steps terminal.ambiguous",
    ]);
  });

  test("the path may mix needs edges and decision edges", () => {
    // x reads y.lastOutput; the path y → g (needs) → x (decision case) exempts it.
    const steps = [
      reader("x", "{{ steps.y.lastOutput }}", { maxVisits: 2 }),
      reader("y", "{{ steps.x.lastOutput }}", { needs: ["x"], maxVisits: 2 }),
      decisionStep("g", { cases: [{ when: "{{ steps.y.lastOutput }}", to: "x" }], default: "end" }, { needs: ["y"], maxVisits: 2 }),
    ];
    expectValid(withSteps(steps));
  });

  test("external steps are never exempt (a body step reading its parent's dependency)", () => {
    const body = [reader("one", "{{ item }} {{ steps.src.lastOutput }}")];
    const par = parallelStep("fan", body, { needs: ["src"] });
    expectFindings(withSteps([toolStep("src"), par]), ["$.steps[1].steps[0].with.prompt step.undeclared_dependency"]);
    const declared = parallelStep("fan", [reader("one", "{{ item }} {{ steps.src.lastOutput }}", { needs: ["src"] })], { needs: ["src"] });
    expectValid(withSteps([toolStep("src"), declared]));
  });
});

describe("self reads (catalog 3.4)", () => {
  test("reading one's own output fires unless it is lastOutput/allVisits on a cycle through itself", () => {
    expectFindings(withSteps([reader("me", "{{ steps.me.output }}")]), ["$.steps[0].with.prompt step.undeclared_dependency"]);
    expectFindings(withSteps([reader("me", "{{ steps.me.lastOutput }}")]), ["$.steps[0].with.prompt step.undeclared_dependency"]);
    expectFindings(withSteps([reader("me", "{{ steps.me.allVisits }}")]), ["$.steps[0].with.prompt step.undeclared_dependency"]);
  });

  test("on the loop a step may read its own lastOutput / allVisits", () => {
    expectValid(withSteps(loop({ draft: { with: { model: "model-a", prompt: "{{ steps.draft.lastOutput }} {{ steps.critique.allVisits }} {{ steps.draft.allVisits }}" } } })));
    expectFindings(withSteps(loop({ draft: { with: { model: "model-a", prompt: "{{ steps.draft.output }}" } } })), [
      "$.steps[0].with.prompt step.undeclared_dependency",
      "$.steps[0].with.prompt lwir.output_ambiguous_for_multi_visit",
    ]);
  });

  test("a self-need declares the self read (and is a cycle)", () => {
    expectFindings(withSteps([reader("me", "{{ steps.me.output }}", { needs: ["me"] })]), ["$.steps lwir.invalid_cycle"]);
  });
});

describe("output.missing_schema, reference form (catalog 3.4)", () => {
  const jsonA = (extra: Json = {}) => toolStep("a", { output: { mode: "json" }, ...extra });

  test("no reference, no finding: json may omit its schema", () => {
    expectValid(withSteps([jsonA(), aiStep("b", { needs: ["a"] })]));
  });

  test("one finding per reference, at the read step's output.schema", () => {
    const b = reader("b", "{{ steps.a.output }} {{ steps.a.output.x }}", { needs: ["a"], input: { again: "{{ steps.a.lastOutput }}" } });
    expectFindings(withSteps([jsonA(), b]), ["$.steps[0].output.schema output.missing_schema", "$.steps[0].output.schema output.missing_schema", "$.steps[0].output.schema output.missing_schema"]);
  });

  test("a bare steps.X and allVisits count", () => {
    expectFindings(withSteps([jsonA(), reader("b", "{{ steps.a }}", { needs: ["a"] })]), ["$.steps[0].output.schema output.missing_schema"]);
    expectFindings(withSteps([jsonA(), reader("b", "{{ len(steps.a.allVisits) }}", { needs: ["a"] })]), ["$.steps[0].output.schema output.missing_schema"]);
  });

  test("undeclared references count too, in addition to undeclared_dependency", () => {
    expectFindings(withSteps([jsonA(), reader("b", "{{ steps.a.output }}"), aiStep("z", { needs: ["a", "b"] })]), [
      "$.steps[0].output.schema output.missing_schema",
      "$.steps[1].with.prompt step.undeclared_dependency",
    ]);
  });

  test("references from several steps each count", () => {
    const steps = [jsonA(), reader("b", "{{ steps.a.output }}", { needs: ["a"] }), reader("c", "{{ steps.a.output }}", { needs: ["a", "b"] })];
    expectFindings(withSteps(steps), ["$.steps[0].output.schema output.missing_schema", "$.steps[0].output.schema output.missing_schema"]);
  });

  test("a schema (even `true`) satisfies it; other modes never fire", () => {
    expectValid(withSteps([jsonA({ output: { mode: "json", schema: true } }), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]));
    expectValid(withSteps([toolStep("a"), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]));
  });

  test("an external json step read from a body is reported at its top-level path", () => {
    const par = parallelStep("fan", [reader("one", "{{ item }} {{ steps.a.output }}", { needs: ["a"] })], { needs: ["a"] });
    expectFindings(withSteps([jsonA(), par]), ["$.steps[0].output.schema output.missing_schema"]);
  });

  test("a json step in a body read by a sibling is reported at its body path", () => {
    const body = [toolStep("src", { output: { mode: "json" } }), reader("one", "{{ item }} {{ steps.src.output }}", { needs: ["src"] })];
    expectFindings(withSteps([parallelStep("fan", body)]), ["$.steps[0].steps[0].output.schema output.missing_schema"]);
  });
});

describe("lwir.output_ambiguous_for_multi_visit (catalog 3.4, quirk 9.7)", () => {
  const multi = (maxVisits: unknown) => toolStep("a", { maxVisits });

  test("`.output` of a step with maxVisits > 1, one per reference, with or without needs", () => {
    expectFindings(withSteps([multi(2), reader("b", "{{ steps.a.output }} {{ steps.a.output.y }}", { needs: ["a"] })]), [
      "$.steps[1].with.prompt lwir.output_ambiguous_for_multi_visit",
      "$.steps[1].with.prompt lwir.output_ambiguous_for_multi_visit",
    ]);
    expectFindings(withSteps([multi(100), reader("b", "{{ steps.a.output }}"), aiStep("z", { needs: ["a", "b"] })]), [
      "$.steps[1].with.prompt lwir.output_ambiguous_for_multi_visit",
      "$.steps[1].with.prompt step.undeclared_dependency",
    ]);
  });

  test("lastOutput and allVisits never fire; maxVisits 1 never fires", () => {
    expectValid(withSteps([multi(5), reader("b", "{{ steps.a.lastOutput }} {{ steps.a.allVisits }}", { needs: ["a"] })]));
    expectValid(withSteps([multi(1), reader("b", "{{ steps.a.output }} {{ steps.a.lastOutput }}", { needs: ["a"] })]));
  });

  test("a bare steps.X or another property does not fire", () => {
    expectValid(withSteps([multi(3), reader("b", "{{ steps.a }} {{ steps.a.outputs }}", { needs: ["a"] })]));
  });

  test("the string \"5\" is out of range but still multi-visit", () => {
    expectFindings(withSteps([multi("5"), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]), [
      "$.steps[0].maxVisits step.max_visits_out_of_range",
      "$.steps[1].with.prompt lwir.output_ambiguous_for_multi_visit",
    ]);
  });

  test("quirk 9.7: string maxVisits \"5\" on a loop satisfies the cycle rule", () => {
    expectFindings(withSteps(loop({ draft: { maxVisits: "5" }, critique: { maxVisits: "5" }, gate: { maxVisits: "5" } })), [
      "$.steps[0].maxVisits step.max_visits_out_of_range",
      "$.steps[1].maxVisits step.max_visits_out_of_range",
      "$.steps[2].maxVisits step.max_visits_out_of_range",
    ]);
    // "1" does not.
    expectFindings(withSteps(loop({ gate: { maxVisits: "1" } })), ["$.steps[2].maxVisits step.max_visits_out_of_range", "$.steps lwir.invalid_cycle"]);
  });

  test("an array maxVisits [2] compares as 2", () => {
    expectFindings(withSteps([multi([2]), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]), [
      "$.steps[0].maxVisits step.max_visits_out_of_range",
      "$.steps[1].with.prompt lwir.output_ambiguous_for_multi_visit",
    ]);
  });

  test("out-of-range values compare as JavaScript does", () => {
    expectFindings(withSteps([multi(101), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]), [
      "$.steps[0].maxVisits step.max_visits_out_of_range",
      "$.steps[1].with.prompt lwir.output_ambiguous_for_multi_visit",
    ]);
    for (const v of [null, "1", 0, "x", true]) {
      expectFindings(withSteps([multi(v), reader("b", "{{ steps.a.output }}", { needs: ["a"] })]), ["$.steps[0].maxVisits step.max_visits_out_of_range"], JSON.stringify(v));
    }
  });

  test("external steps: a body step reading a multi-visit parent dependency", () => {
    const par = parallelStep("fan", [reader("one", "{{ item }} {{ steps.a.output }}", { needs: ["a"] })], { needs: ["a"] });
    expectFindings(withSteps([multi(4), par]), ["$.steps[1].steps[0].with.prompt lwir.output_ambiguous_for_multi_visit"]);
  });

  test("in a decision's when", () => {
    const steps = loop({ gate: { with: { cases: [{ when: "{{ steps.critique.output.ok }}", to: "end" }], default: "draft" } } });
    expectFindings(withSteps(steps), ["$.steps[2].with.cases[0].when lwir.output_ambiguous_for_multi_visit"]);
  });

  test("a reference to a missing step is only a missing dependency", () => {
    expectFindings(withSteps([reader("b", "{{ steps.ghost.output }}")]), ["$.steps[0].with.prompt step.missing_dependency"]);
  });
});

describe("external steps of parallel bodies (catalog 3.4)", () => {
  test("a body step reads a step its parent needs, declaring it in its own needs", () => {
    const par = parallelStep("fan", [reader("one", "{{ item }} {{ steps.src.output }}", { needs: ["src"] })], { needs: ["src"] });
    expectValid(withSteps([toolStep("src"), par]));
  });

  test("the parent's needs must name a declared step of the parent's list", () => {
    const par = parallelStep("fan", [reader("one", "{{ item }} {{ steps.src.output }}", { needs: ["src"] })], { needs: ["src"] });
    expectFindings(withSteps([par]), [
      "$.steps[0].needs[0] step.missing_dependency",
      "$.steps[0].steps[0].needs[0] step.missing_dependency",
      "$.steps[0].steps[0].with.prompt step.missing_dependency",
    ]);
  });

  test("a body step needing an external step without reading it is fine", () => {
    const par = parallelStep("fan", [aiStep("one", { needs: ["src"], with: { model: "model-a", prompt: "{{ item }}" } })], { needs: ["src"] });
    expectValid(withSteps([toolStep("src"), par]));
  });

  test("a local body step shadows an external step of the same id", () => {
    // Inside the body, "src" is the local json step, which is read without a schema.
    const body = [toolStep("src", { output: { mode: "json" } }), reader("one", "{{ item }} {{ steps.src.output }}", { needs: ["src"] })];
    const par = parallelStep("fan", body, { needs: ["src"] });
    expectFindings(withSteps([toolStep("src"), par]), ["$.steps[1].steps[0].output.schema output.missing_schema"]);
  });

  test("externals are inherited by a nested parallel step's body", () => {
    const innerBody = [reader("leaf", "{{ item }} {{ steps.src.output }} {{ steps.mid.output }}", { needs: ["src", "mid"] })];
    const inner = parallelStep("inner", innerBody, { needs: ["mid", "src"] });
    inner.with.items = "{{ item.children }}";
    const outerBody = [reader("mid", "{{ item }}"), inner];
    const outer = parallelStep("outer", outerBody, { needs: ["src"] });
    expectFindings(withSteps([toolStep("src"), outer]), ["$.steps[1].steps[1].uses parallel.nested_unsupported"]);
  });

  test("a nested body cannot see a top-level step the outer parallel step does not need", () => {
    const innerBody = [reader("leaf", "{{ item }} {{ steps.src.output }}", { needs: ["src"] })];
    const inner = parallelStep("inner", innerBody, { needs: ["src"] });
    const outer = parallelStep("outer", [inner]);
    expectFindings(withSteps([toolStep("src"), outer, aiStep("z", { needs: ["src", "outer"] })]), [
      "$.steps[1].steps[0].uses parallel.nested_unsupported",
      "$.steps[1].steps[0].needs[0] step.missing_dependency",
      "$.steps[1].steps[0].steps[0].needs[0] step.missing_dependency",
      "$.steps[1].steps[0].steps[0].with.prompt step.missing_dependency",
    ]);
  });
});

describe("lwir.decision_target_referenced_by_needs (catalog 3.4)", () => {
  /** a → d (decision) → t (target with needs [a]); `after` may need t. */
  function gated(after: Json | undefined, tNeeds: unknown = ["a"]): Json[] {
    const d = decisionStep("d", { cases: [{ when: "{{ steps.a.output == 'go' }}", to: "t" }], default: "end" }, { needs: ["a"] });
    const t = aiStep("t", { needs: tNeeds });
    return after ? [toolStep("a"), d, t, after] : [toolStep("a"), d, t];
  }

  test("needing a guarded target is reported at S.needs", () => {
    expectFindings(withSteps(gated(aiStep("u", { needs: ["t"] }))), ["$.steps[3].needs lwir.decision_target_referenced_by_needs"]);
  });

  test("one finding per needs entry naming a guarded target", () => {
    expectFindings(withSteps(gated(aiStep("u", { needs: ["t", "a", "t"] }))), [
      "$.steps[3].needs lwir.decision_target_referenced_by_needs",
      "$.steps[3].needs lwir.decision_target_referenced_by_needs",
    ]);
  });

  test("a target whose needs holds only invalid entries is still guarded", () => {
    expectFindings(withSteps(gated(aiStep("u", { needs: ["t"] }), [7])), [
      "$.steps[2].needs[0] step.invalid_needs",
      "$.steps[3].needs lwir.decision_target_referenced_by_needs",
    ]);
  });

  test("a target with empty or no needs is not guarded", () => {
    expectValid(withSteps(gated(aiStep("u", { needs: ["t"] }), [])));
    const steps = gated(aiStep("u", { needs: ["t"] }));
    delete steps[2].needs;
    expectValid(withSteps(steps));
  });

  test("a target named by default counts", () => {
    const d = decisionStep("d", { default: "t" }, { needs: ["a"] });
    expectFindings(withSteps([toolStep("a"), d, aiStep("t", { needs: ["a"] }), aiStep("u", { needs: ["t"] })]), ["$.steps[3].needs lwir.decision_target_referenced_by_needs"]);
  });

  test("decisions and other targets may need a guarded target", () => {
    const d = decisionStep("d", { cases: [{ when: "{{ steps.a.output }}", to: "t" }, { when: "{{ input.x }}", to: "t2" }], default: "end" }, { needs: ["a"] });
    const d2 = decisionStep("d2", { default: "end" }, { needs: ["t"] });
    expectValid(withSteps([toolStep("a"), d, aiStep("t", { needs: ["a"] }), aiStep("t2", { needs: ["t"] }), d2]));
  });

  test("a target in another list is not this list's target", () => {
    const par = parallelStep("fan", [reader("one", "{{ item }}"), decisionStep("bd", { default: "end" }, { needs: ["one"] })]);
    // Top level: t is needed but not targeted by a decision of the top-level list.
    expectValid(withSteps([toolStep("a"), aiStep("t", { needs: ["a"] }), { ...par, needs: ["t"] }]));
  });

  test("a body list has its own deadlock check", () => {
    const body = [
      reader("one", "{{ item }}"),
      decisionStep("bd", { cases: [{ when: "{{ item.ok }}", to: "two" }], default: "end" }, { needs: ["one"] }),
      aiStep("two", { needs: ["one"] }),
      aiStep("three", { needs: ["two"] }),
    ];
    expectFindings(withSteps([parallelStep("fan", body)]), ["$.steps[0].steps[3].needs lwir.decision_target_referenced_by_needs"]);
  });
});

describe("lwir.invalid_cycle (catalog 3.4)", () => {
  const cycleFindings = (doc: unknown) => validate(doc).findings.filter((f) => f.code === "lwir.invalid_cycle");

  test("a two-step needs cycle at maxVisits 1: one finding at the list path, maxVisits branch", () => {
    const doc = withSteps([aiStep("a", { needs: ["b"] }), aiStep("b", { needs: ["a"] })]);
    expectFindings(doc, ["$.steps lwir.invalid_cycle"]);
    assert.match(cycleFindings(doc)[0].message, /maxVisits/);
  });

  test("all members multi-visit but no decision: one finding, decision branch", () => {
    const doc = withSteps([aiStep("a", { needs: ["b"], maxVisits: 2 }), aiStep("b", { needs: ["a"], maxVisits: 2 })]);
    expectFindings(doc, ["$.steps lwir.invalid_cycle"]);
    assert.match(cycleFindings(doc)[0].message, /decision/);
  });

  test("the two branches give different messages", () => {
    const a = cycleFindings(withSteps([aiStep("a", { needs: ["b"] }), aiStep("b", { needs: ["a"] })]))[0].message;
    const b = cycleFindings(withSteps([aiStep("a", { needs: ["b"], maxVisits: 2 }), aiStep("b", { needs: ["a"], maxVisits: 2 })]))[0].message;
    assert.notEqual(a, b);
  });

  test("one short member is enough for the maxVisits branch", () => {
    expectFindings(withSteps([aiStep("a", { needs: ["b"], maxVisits: 50 }), aiStep("b", { needs: ["a"] })]), ["$.steps lwir.invalid_cycle"]);
  });

  test("a self-need is a one-node cycle", () => {
    expectFindings(withSteps([aiStep("a", { needs: ["a"] })]), ["$.steps lwir.invalid_cycle"]);
    const doc = withSteps([aiStep("a", { needs: ["a"], maxVisits: 2 })]);
    expectFindings(doc, ["$.steps lwir.invalid_cycle"]);
    assert.match(cycleFindings(doc)[0].message, /decision/);
  });

  test("two independent cycles: two findings", () => {
    expectFindings(withSteps([
      aiStep("a", { needs: ["b"] }), aiStep("b", { needs: ["a"] }),
      aiStep("c", { needs: ["d"] }), aiStep("d", { needs: ["c"] }),
    ]), ["$.steps lwir.invalid_cycle", "$.steps lwir.invalid_cycle"]);
  });

  test("a decision with maxVisits 1 on the cycle", () => {
    const doc = withSteps(loop({ gate: { maxVisits: 1 } }));
    expectFindings(doc, ["$.steps lwir.invalid_cycle"]);
    const missing = loop();
    delete missing[2].maxVisits;
    expectFindings(withSteps(missing), ["$.steps lwir.invalid_cycle"]);
  });

  test("a loop whose decision and members all have maxVisits >= 2 is valid, also at 100", () => {
    expectValid(withSteps(loop()));
    expectValid(withSteps(loop({ draft: { maxVisits: 100 }, critique: { maxVisits: 2 }, gate: { maxVisits: 100 } })));
  });

  test("a residual sub-cycle without a decision", () => {
    // x ⇄ y through needs, plus the decision g looping back to x: removing g leaves x ⇄ y.
    const steps = [
      aiStep("x", { needs: ["y"], maxVisits: 3 }),
      aiStep("y", { needs: ["x"], maxVisits: 3 }),
      decisionStep("g", { default: "x" }, { needs: ["y"], maxVisits: 3 }),
    ];
    const doc = withSteps(steps);
    // x is a decision target with needs of its own, and y (not a target) needs it.
    expectFindings(doc, ["$.steps lwir.invalid_cycle", "$.steps[1].needs lwir.decision_target_referenced_by_needs"]);
    assert.match(cycleFindings(doc)[0].message, /decision/);
  });

  test("two residual sub-cycles give two findings", () => {
    const steps = [
      aiStep("x", { needs: ["y"], maxVisits: 3 }),
      aiStep("y", { needs: ["x"], maxVisits: 3 }),
      decisionStep("g", { cases: [{ when: "{{ input.a }}", to: "p" }], default: "x" }, { needs: ["y", "q"], maxVisits: 3 }),
      aiStep("p", { needs: ["q"], maxVisits: 3 }),
      aiStep("q", { needs: ["p"], maxVisits: 3 }),
    ];
    expectFindings(withSteps(steps), [
      "$.steps lwir.invalid_cycle",
      "$.steps lwir.invalid_cycle",
      "$.steps[1].needs lwir.decision_target_referenced_by_needs",
      "$.steps[4].needs lwir.decision_target_referenced_by_needs",
    ]);
  });

  test("decision edges from malformed cases still close cycles", () => {
    const steps = [aiStep("a", { maxVisits: 1 }), decisionStep("g", { cases: [{ to: "a" }], default: "end" }, { needs: ["a"] })];
    expectFindings(withSteps(steps), ["$.steps[1].with.cases[0] decision.case_invalid", "$.steps lwir.invalid_cycle"]);
  });

  test("a cycle inside a body is reported at the body's list path", () => {
    const body = [
      reader("w", "{{ item }} {{ steps.r.lastOutput }}", { maxVisits: 1 }),
      aiStep("r", { needs: ["w"], maxVisits: 2 }),
      decisionStep("g", { default: "w" }, { needs: ["r"], maxVisits: 2 }),
    ];
    expectFindings(withSteps([parallelStep("fan", body)]), ["$.steps[0].steps lwir.invalid_cycle"]);
    body[0].maxVisits = 2;
    expectValid(withSteps([parallelStep("fan", body)]));
  });

  test("a 5,000-step cycle does not throw and gives one finding (either branch)", () => {
    const n = 5000;
    const build = (maxVisits: number) => {
      const steps: Json[] = [];
      for (let i = 0; i < n; i++) steps.push(aiStep(`s${i}`, { needs: [`s${(i + n - 1) % n}`], maxVisits }));
      return withSteps(steps);
    };
    const short = build(1);
    expectFindings(short, ["$.steps lwir.invalid_cycle"]);
    assert.match(cycleFindings(short)[0].message, /maxVisits/);
    const long = build(2);
    expectFindings(long, ["$.steps lwir.invalid_cycle"]);
    assert.match(cycleFindings(long)[0].message, /decision/);
  });

  test("a 5,000-step chain with a lastOutput back-edge reference is exempt and does not throw", () => {
    const n = 5000;
    const steps: Json[] = [reader("s0", `{{ steps.s${n - 1}.lastOutput }}`)];
    for (let i = 1; i < n; i++) steps.push(aiStep(`s${i}`, { needs: [`s${i - 1}`] }));
    // No path from the last step back to s0: the read is undeclared.
    expectFindings(withSteps(steps), ["$.steps[0].with.prompt step.undeclared_dependency"]);
    // With a decision looping back to s0 (every member multi-visit) the read is exempt and the loop valid.
    for (const s of steps) s.maxVisits = 2;
    steps.push(decisionStep("g", { default: "s0" }, { needs: [`s${n - 1}`], maxVisits: 2 }));
    expectValid(withSteps(steps));
  });
});

describe("finding details: the facts behind a finding, for the editor", () => {
  const detailsOf = (doc: Json, code: string) => validate(doc).findings.filter((f) => f.code === code).map((f) => f.details);

  test("a reference: the target, the reading step, the string and the offsets; none for a missing target", () => {
    const prompt = "Use {{ steps.a.output }} and {{ steps.ghost.output }}";
    const doc = withSteps([toolStep("a"), reader("b", prompt)]);
    assert.deepEqual(detailsOf(doc, "step.undeclared_dependency"), [{
      kind: "reference", stepId: "a", property: "output", target: ["steps", 0], external: false,
      from: ["steps", 1], stringPath: ["steps", 1, "with", "prompt"], start: 7, end: 21,
    }]);
    assert.equal(prompt.slice(7, 21), "steps.a.output");
    const [missing] = detailsOf(doc, "step.missing_dependency");
    assert.ok(missing?.kind === "reference" && missing.target === undefined && missing.stepId === "ghost");
  });

  test("a body step reading its parent's dependency: external", () => {
    const doc = withSteps([toolStep("a"), parallelStep("fan", [reader("one", "{{ item.x }} {{ steps.a.output }}")], { needs: ["a"] })]);
    const [d] = detailsOf(doc, "step.undeclared_dependency");
    assert.ok(d?.kind === "reference");
    assert.deepEqual([d.target, d.external, d.from], [["steps", 0], true, ["steps", 1, "steps", 0]]);
  });

  test("a needs entry: its index as written (the path counts valid entries only)", () => {
    assert.deepEqual(detailsOf(withSteps([aiStep("a", { needs: ["", "ghost"] })]), "step.missing_dependency"),
      [{ kind: "needsEntry", stepId: "ghost", needsIndex: 1 }]);
  });

  test("a cycle: its members, and those below maxVisits 2", () => {
    const doc = withSteps([aiStep("a", { needs: ["b"] }), aiStep("b", { needs: ["a"], maxVisits: 2 }), aiStep("z", { needs: ["a", "b"] })]);
    const [d] = detailsOf(doc, "lwir.invalid_cycle");
    assert.ok(d?.kind === "cycle" && d.reason === "maxVisits");
    assert.deepEqual([[...d.cycle].sort(), d.below], [[["steps", 0], ["steps", 1]], [["steps", 0]]]);
  });

  test("a duplicate id: the first step; ambiguous terminals: every one", () => {
    const doc = withSteps([aiStep("a"), aiStep("b"), aiStep("a")]);
    assert.deepEqual(detailsOf(doc, "step.duplicate_id"), [{ kind: "duplicateId", first: ["steps", 0] }]);
    assert.deepEqual(detailsOf(doc, "terminal.ambiguous"), [{ kind: "terminals", terminals: [["steps", 0], ["steps", 1], ["steps", 2]] }]);
  });
});

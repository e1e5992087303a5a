// decision steps (catalog 3.10, 3.6 source 2, 5.7, 9.1 as decided in section 11).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { validateLwir } from "../../server/src/lwir/validate";
import {
  type Json, aiStep, decisionStep, expectFindings, expectValid, parallelStep, toolStep, withSteps,
} from "./lwir-fixtures";

const D = "$.steps[1]";

/** a → d (the decision under test, needing a) plus targets x and y (no needs). */
function doc(w: unknown, extra: Json = {}): Json {
  const d = decisionStep("d", w, { needs: ["a"], ...extra });
  if (w === undefined) delete d.with;
  return withSteps([toolStep("a"), d, aiStep("x"), aiStep("y")]);
}
const when = "{{ steps.a.output == 'go' }}";

describe("a valid decision", () => {
  test("cases and a default naming declared steps", () => {
    expectValid(doc({ cases: [{ when, to: "x" }], default: "y" }));
  });

  test("\"end\" targets, no cases, empty cases, null cases", () => {
    // With "end" everywhere x and y become terminals, so give them one consumer.
    const steps = (w: Json) => withSteps([toolStep("a"), decisionStep("d", w, { needs: ["a"] }), aiStep("z")]);
    expectValid(steps({ default: "end" }));
    expectValid(steps({ default: "end", cases: [] }));
    expectValid(steps({ default: "end", cases: null }));
    expectValid(steps({ default: "end", cases: [{ when, to: "end" }] }));
  });

  test("unknown with keys are ignored and not template-checked", () => {
    expectValid(doc({ cases: [{ when, to: "x", label: "{{ nope", priority: 1 }], default: "y", note: "}} {{", prompt: "{{ ; }}" }));
  });
});

describe("decision.default_required (at S.with.default)", () => {
  test("default missing, empty, or not a string", () => {
    for (const v of [undefined, "", null, 5, ["y"], { to: "y" }, true]) {
      const w: Json = { cases: [{ when, to: "x" }, { when, to: "y" }] };
      if (v !== undefined) w.default = v;
      expectFindings(doc(w), [`${D}.with.default decision.default_required`], JSON.stringify(v));
    }
  });

  test("`with` not an object: default and cases read as missing", () => {
    for (const v of [undefined, null, "y", [{ when, to: "x" }], 7]) {
      const d = decisionStep("d", v, { needs: ["a"] });
      if (v === undefined) delete d.with;
      expectFindings(withSteps([toolStep("a"), d, aiStep("z")]), [`${D}.with.default decision.default_required`], JSON.stringify(v));
    }
  });
});

describe("decision.case_invalid (at S.with.cases[k])", () => {
  test("elements lacking a string when or a non-empty string to", () => {
    const cases = [
      { when },             // 0: no to
      { to: "x" },          // 1: no when
      { when: 5, to: "x" }, // 2: when not a string
      { when, to: "" },     // 3: empty to
      { when, to: 5 },      // 4: to not a string
      null,                 // 5
      "x",                  // 6
      [when, "x"],          // 7
      { when: null, to: null }, // 8
      { when, to: "y" },    // 9: fine
    ];
    expectFindings(doc({ cases, default: "end" }), [0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => `${D}.with.cases[${k}] decision.case_invalid`));
  });

  test("an empty-string when is a string: it is a case, and then a bad template", () => {
    expectFindings(doc({ cases: [{ when: "", to: "x" }], default: "y" }), [`${D}.with.cases[0].when expression.invalid`]);
  });

  test("a string cases value is walked character by character", () => {
    expectFindings(doc({ cases: "abc", default: "y" }), [0, 1, 2].map((k) => `${D}.with.cases[${k}] decision.case_invalid`));
    expectFindings(doc({ cases: "", default: "y" }), []);
    // Characters are never targets: x stays a terminal next to the other (untargeted) y.
    expectFindings(doc({ cases: "xy", default: "end" }), [`${D}.with.cases[0] decision.case_invalid`, `${D}.with.cases[1] decision.case_invalid`, "$.steps terminal.ambiguous"]);
  });

  test("missing or null cases means no cases", () => {
    expectValid(doc({ default: "y" }));
    expectValid(doc({ default: "y", cases: null }));
    // With no target at all, x and y are both terminals.
    expectFindings(doc({ default: "end", cases: null }), ["$.steps terminal.ambiguous"]);
  });

  test("numeric, boolean and non-array object cases: exactly one finding at S.with.cases, never a throw (section 11)", () => {
    const values: unknown[] = [0, 3, -1, 2.5, true, false, {}, { length: 2 }, { 0: { when, to: "x" }, length: 1 }, { when, to: "x" }];
    for (const cases of values) {
      let result: ReturnType<typeof validateLwir> | undefined;
      assert.doesNotThrow(() => { result = validateLwir(doc({ cases, default: "y" })); }, JSON.stringify(cases));
      assert.ok(result);
      expectFindings(doc({ cases, default: "y" }), [`${D}.with.cases decision.case_invalid`], JSON.stringify(cases));
    }
  });

  test("such cases count as no cases for the flow graph: no cycle, no target check, no deadlock", () => {
    // With cases read as a list, the case to "a" would close the cycle a → d → a (maxVisits 1).
    const d = decisionStep("d", { cases: { 0: { when, to: "a" }, length: 1 }, default: "end" }, { needs: ["a"] });
    expectFindings(withSteps([toolStep("a"), d]), ["$.steps[1].with.cases decision.case_invalid"]);
    const ghost = decisionStep("d", { cases: { when, to: "ghost" }, default: "end" }, { needs: ["a"] });
    expectFindings(withSteps([toolStep("a"), ghost]), ["$.steps[1].with.cases decision.case_invalid"]);
    // t would be a guarded target needed by u.
    const guard = decisionStep("d", { cases: { when, to: "t" }, default: "end" }, { needs: ["a"] });
    expectFindings(withSteps([toolStep("a"), guard, aiStep("t", { needs: ["a"] }), aiStep("u", { needs: ["t"] })]), ["$.steps[1].with.cases decision.case_invalid"]);
  });

  test("also inside a parallel body", () => {
    const body = [aiStep("one", { with: { model: "model-a", prompt: "{{ item }}" } }), decisionStep("bd", { cases: 12, default: "end" }, { needs: ["one"] })];
    assert.doesNotThrow(() => validateLwir(withSteps([parallelStep("fan", body)])));
    expectFindings(withSteps([parallelStep("fan", body)]), ["$.steps[0].steps[1].with.cases decision.case_invalid"]);
  });

  test("a duplicate decision (not in the flow graph) gets the reference's walk by index: none for true", () => {
    const dup = decisionStep("d", { cases: true, default: "end" }, { needs: ["a"] });
    expectFindings(withSteps([toolStep("a"), decisionStep("d", { default: "end" }, { needs: ["a"] }), dup]), [
      "$.steps[2].id step.duplicate_id",
    ]);
  });
});

describe("decision.target_not_in_scope (at S.with)", () => {
  test("an unknown default", () => {
    expectFindings(doc({ cases: [{ when, to: "x" }, { when, to: "y" }], default: "ghost" }), [`${D}.with decision.target_not_in_scope`]);
  });

  test("an unknown case target", () => {
    expectFindings(doc({ cases: [{ when, to: "ghost" }, { when, to: "x" }], default: "y" }), [`${D}.with decision.target_not_in_scope`]);
  });

  test("targets are deduplicated; distinct unknown targets each count", () => {
    expectFindings(doc({ cases: [{ when, to: "ghost" }, { when, to: "ghost" }, { when, to: "x" }], default: "ghost" }), [`${D}.with decision.target_not_in_scope`]);
    expectFindings(doc({ cases: [{ when, to: "g1" }, { when, to: "g2" }, { when, to: "x" }], default: "g3" }), [
      `${D}.with decision.target_not_in_scope`,
      `${D}.with decision.target_not_in_scope`,
      `${D}.with decision.target_not_in_scope`,
    ]);
  });

  test("\"end\" is never out of scope, even when a step is called end", () => {
    expectValid(doc({ cases: [{ when, to: "end" }, { when, to: "x" }], default: "y" }));
    // The step called end is not a target, so it is a terminal next to z.
    const steps = [toolStep("a"), decisionStep("d", { cases: [{ when, to: "end" }], default: "x" }, { needs: ["a"] }), aiStep("x"), aiStep("end"), aiStep("z")];
    expectFindings(withSteps(steps), ["$.steps terminal.ambiguous"]);
  });

  test("targets of malformed cases are not checked", () => {
    expectFindings(doc({ cases: [{ to: "ghost" }, { when: 1, to: "ghost2" }], default: "y" }), [
      `${D}.with.cases[0] decision.case_invalid`,
      `${D}.with.cases[1] decision.case_invalid`,
    ]);
  });

  test("a target with a bad when is still a target", () => {
    expectFindings(doc({ cases: [{ when: "go", to: "ghost" }, { when, to: "x" }], default: "y" }), [
      `${D}.with.cases[0].when expression.invalid`,
      `${D}.with decision.target_not_in_scope`,
    ]);
  });

  test("a decision may target itself (with maxVisits 2 the one-node loop is fine)", () => {
    expectValid(withSteps([toolStep("a"), decisionStep("d", { default: "d" }, { needs: ["a"], maxVisits: 2 })]));
    expectFindings(withSteps([toolStep("a"), decisionStep("d", { default: "d" }, { needs: ["a"] })]), ["$.steps lwir.invalid_cycle"]);
  });

  test("steps with invalid ids, and steps in other lists, are not in scope", () => {
    const steps = [toolStep("a"), decisionStep("d", { cases: [{ when, to: "x.y" }], default: "fan-one" }, { needs: ["a"] }), aiStep("x.y"), parallelStep("fan")];
    expectFindings(withSteps(steps), [
      "$.steps[2].id step.invalid_id",
      `${D}.with decision.target_not_in_scope`,
      `${D}.with decision.target_not_in_scope`,
    ]);
  });

  test("a body decision cannot target a top-level step, even one its parent needs", () => {
    const body = [aiStep("one", { with: { model: "model-a", prompt: "{{ item }}" } }), decisionStep("bd", { default: "src" }, { needs: ["one"] })];
    expectFindings(withSteps([toolStep("src"), parallelStep("fan", body, { needs: ["src"] })]), ["$.steps[1].steps[1].with decision.target_not_in_scope"]);
  });

  test("a duplicate-id target is declared (the first entry)", () => {
    expectFindings(withSteps([toolStep("a"), decisionStep("d", { default: "x" }, { needs: ["a"] }), aiStep("x"), aiStep("x")]), ["$.steps[3].id step.duplicate_id"]);
  });
});

describe("when: whole-string template (catalog 3.6 source 2, 5.7)", () => {
  const bad = [" {{ steps.a.output }}", "{{ steps.a.output }} ", "{{ steps.a.output }}\n", "{{ input.x }}{{ input.y }}", "x: {{ input.x }}", "steps.a.ok", "", "true",
    "{{ steps.a.output; }}", "{{ }}", "{{}}", "{{ item.ok }}", "{{ steps[0].output }}", "{{ input.a < input.b < input.c }}"];
  for (const w of bad) {
    test(`${JSON.stringify(w)} is expression.invalid at cases[k].when`, () => {
      expectFindings(doc({ cases: [{ when, to: "x" }, { when: w, to: "y" }], default: "end" }), [`${D}.with.cases[1].when expression.invalid`]);
    });
  }

  const good = ["{{ steps.a.output }}", "{{steps.a.output}}", "{{ steps.a.output.ok == true }}", "{{ len(steps.a.output) > 3 && input.x != null }}", "{{ coalesce(input.a, 'x') === \"x\" }}", "{{{ steps.a.output }}}"];
  for (const w of good) {
    test(`${JSON.stringify(w)} is accepted`, () => {
      expectValid(doc({ cases: [{ when: w, to: "x" }], default: "y" }));
    });
  }

  test("item is allowed in when inside a body", () => {
    const body = [
      aiStep("one", { with: { model: "model-a", prompt: "{{ item }}" } }),
      decisionStep("bd", { cases: [{ when: "{{ item.ok }}", to: "two" }], default: "end" }, { needs: ["one"] }),
      aiStep("two"),
    ];
    expectValid(withSteps([parallelStep("fan", body)]));
  });

  test("a non-string when is case_invalid, not expression.invalid", () => {
    expectFindings(doc({ cases: [{ when: { "steps.a.output": null }, to: "x" }], default: "y" }), [`${D}.with.cases[0] decision.case_invalid`]);
  });

  test("a bad when with an empty `to` is only case_invalid", () => {
    expectFindings(doc({ cases: [{ when: "bad", to: "" }], default: "y" }), [`${D}.with.cases[0] decision.case_invalid`]);
  });

  test("the decision's input strings are template-checked like any step's", () => {
    expectFindings(doc({ cases: [{ when, to: "x" }], default: "y" }, { input: { a: "{{ oops" } }), [`${D}.input.a expression.invalid`]);
  });
});

describe("everything at once", () => {
  test("default, cases, scope and when findings accumulate", () => {
    const w = { cases: [{ when: "nope", to: "x" }, { to: "y" }, "z", { when, to: "ghost" }], default: "" };
    expectFindings(doc(w), [
      `${D}.with.default decision.default_required`,
      `${D}.with.cases[0].when expression.invalid`,
      `${D}.with.cases[1] decision.case_invalid`,
      `${D}.with.cases[2] decision.case_invalid`,
      `${D}.with decision.target_not_in_scope`,
    ]);
  });
});

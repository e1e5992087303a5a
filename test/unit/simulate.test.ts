// The dry run's simulation (server/src/run/simulate.ts), written from the runtime semantics: scheduling
// (section 10), step input (7), prompts (8), decisions (9), loops (10.1, 11), parallel (12), output checks (13).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { simulate, encodeItemKey, checkOutput, type Trace } from "../../server/src/run/simulate";
import { sampleOfOutput, sampleOfSchema } from "../../server/src/run/samples";
import { validateInstance, errorsText } from "../../server/src/run/instance";
import { buildPrompt } from "../../server/src/run/prompt";

type Step = Record<string, unknown>;
const text = (id: string, extra: Step = {}): Step => ({ id, uses: "ai.generate", with: { model: "m" }, output: { mode: "text" }, ...extra });
const tool = (id: string, extra: Step = {}): Step => ({ id, uses: "tool.call", with: { tool: "t" }, output: { mode: "json" }, ...extra });
const decision = (id: string, cases: Array<{ when: unknown; to: string }>, dflt: string, extra: Step = {}): Step => ({ id, uses: "decision", with: { cases, default: dflt }, ...extra });
const wf = (steps: Step[], extra: Step = {}): Step => ({ apiVersion: "littleworkflow.dev/v0.1", kind: "Workflow", metadata: { name: "t", version: "1" }, steps, ...extra });
const paths = (t: Trace): string[] => t.steps.map((s) => s.path);

describe("scheduling (spec 10)", () => {
  test("document order among runnable steps; needs wait for completion", () => {
    const t = simulate(wf([text("c", { needs: ["b"] }), text("a"), text("b", { needs: ["a"] })]), { input: {} });
    assert.deepEqual(paths(t), ["a", "b", "c"]);
    assert.equal(t.status, "completed");
    assert.equal(t.output, "text from step c");
  });

  test("a decision's target is held back once the decision's needs are satisfied; the others are dropped", () => {
    const t = simulate(wf([
      tool("classify"),
      decision("route", [{ when: "{{ steps.classify.output }}", to: "a" }], "b", { needs: ["classify"] }),
      text("a"), text("b"),
    ]), { input: {}, outputs: { classify: true } });
    assert.deepEqual(paths(t), ["classify", "route", "a"]);
    assert.equal(t.steps[1].chosen, "a");
    assert.equal(t.status, "completed");
  });

  test("a target runnable before its decision's needs are met runs early, unconditionally", () => {
    const t = simulate(wf([
      text("early"),
      tool("classify", { needs: ["early"] }),
      decision("route", [{ when: "{{ true }}", to: "end" }], "early", { needs: ["classify"] }),
    ]), { input: {} });
    assert.deepEqual(paths(t), ["early", "classify", "route"]);
  });

  test("a step that needs a target the decision did not choose waits forever: No runnable LWIR step", () => {
    const t = simulate(wf([
      tool("classify"),
      decision("route", [{ when: "{{ true }}", to: "a" }], "b", { needs: ["classify"] }),
      text("a"), text("b"), text("c", { needs: ["b"] }),
    ]), { input: {} });
    assert.equal(t.status, "failed");
    assert.equal(t.error!.runtime, "No runnable LWIR step found; dependencies are incomplete or cyclic.");
    assert.equal(t.error!.message, 'No step can run next: "c" waits for a step that will not complete (a decision step, or a decision target that was not chosen).');
    assert.deepEqual(paths(t), ["classify", "route", "a"]);
  });

  test("a step that needs a decision step never runs (decisions never satisfy needs)", () => {
    const t = simulate(wf([
      decision("route", [], "a"), text("a"), text("after", { needs: ["route"] }),
    ]), { input: {} });
    assert.equal(t.status, "failed");
    assert.match(t.error!.runtime!, /No runnable LWIR step/);
  });

  test("a decision choosing end before the terminal step ran: missing a final output artifact", () => {
    const t = simulate(wf([tool("a"), decision("route", [{ when: "{{ true }}", to: "end" }], "b", { needs: ["a"] }), text("b"), text("c", { needs: ["b"] })]), { input: {} });
    assert.equal(t.status, "failed");
    assert.deepEqual(paths(t), ["a", "route"]);
    assert.equal(t.error!.runtime, "Completed run is missing a final output artifact.");
    assert.equal(t.error!.message, 'The run ended before its final step "c" ran, so it has no output.');
  });
});

describe("loops (spec 10.1, 11)", () => {
  const loop = (maxVisits: number): Step => wf([
    text("worker", { maxVisits, with: { model: "m", prompt: "feedback: {{ coalesce(steps.review.lastOutput, \"none\") }}" } }),
    { id: "review", uses: "ai.generate", needs: ["worker"], maxVisits, with: { model: "m" }, output: { mode: "choice", values: ["no", "yes"] } },
    decision("route", [{ when: "{{ steps.review.lastOutput == \"yes\" }}", to: "end" }], "worker", { needs: ["review"], maxVisits }),
    text("done", { needs: ["route"] }),
  ].slice(0, 3));

  test("visits are numbered from 0; each visit gets the next sample of a list; the first pass sees nothing of later members", () => {
    const t = simulate(loop(3), { input: {}, outputs: { review: ["no", "yes"] } });
    assert.deepEqual(paths(t), ["worker.visit[0]", "review.visit[0]", "route.visit[0]", "worker.visit[1]", "review.visit[1]", "route.visit[1]"]);
    assert.match(t.steps[0].user!, /^feedback: none\n\nInput:\n/);
    assert.match(t.steps[3].user!, /^feedback: no\n\nInput:\n/);
    assert.deepEqual(t.steps.filter((s) => s.uses === "decision").map((s) => s.chosen), ["worker", "end"]);
  });

  test("running into maxVisits fails the run at the path the next visit would have had", () => {
    const t = simulate(loop(2), { input: {}, outputs: { review: "no" } });
    assert.equal(t.status, "failed");
    assert.equal(t.error!.stepPath, "worker.visit[2]");
    assert.equal(t.error!.runtime, "Step 'worker' has reached its maxVisits cap of 2.");
    assert.match(t.error!.message, /^Step "worker" would run a 3rd time, but its maxVisits is 2/);
    assert.equal(t.error!.cause, "max_visits_exceeded");
  });

  test("reading a later loop member outside coalesce fails the first pass with references incomplete step", () => {
    const doc = loop(3);
    ((doc.steps as Step[])[0].with as Step).prompt = "{{ steps.review.lastOutput }}";
    const t = simulate(doc, { input: {} });
    assert.equal(t.status, "failed");
    assert.equal(t.error!.stepPath, "worker.visit[0]");
    assert.equal(t.error!.at, "with.prompt");
    assert.equal(t.error!.expression, "steps.review.lastOutput");
  });

  test("a hostile loop (maxVisits in the millions, never ending) stops at the dry run's bound", () => {
    const doc = wf([
      text("a", { maxVisits: 10_000_000 }),
      decision("again", [], "a", { needs: ["a"], maxVisits: 10_000_000 }),
    ]);
    const t = simulate(doc, { input: {}, maxStepRuns: 500 });
    assert.equal(t.status, "failed");
    assert.equal(t.error!.cause, "dry_run_limit");
    assert.equal(t.steps.length, 501);
  });
});

describe("step input (spec 7) and decisions (spec 9)", () => {
  test("input wins over with.args; with.args over the workflow input; literal objects in canonical key order", () => {
    const t = simulate(wf([
      tool("a", { input: { z: 1, a: "{{ input.n }}" }, with: { tool: "t", args: "{{ input.missing }}" } }),
      tool("b", { needs: ["a"], with: { tool: "t", args: ["{{ input.n }}"] } }),
      tool("c", { needs: ["b"] }),
    ]), { input: { n: 7 } });
    assert.equal(t.status, "completed");
    assert.deepEqual(t.steps.map((s) => s.inputFrom), ["input", "with.args", "workflow input"]);
    assert.deepEqual(Object.keys(t.steps[0].input as object), ["a", "z"]);
    assert.deepEqual(t.steps[1].input, [7]);
  });

  test("an input that fails stops the run at that step with the expression", () => {
    const t = simulate(wf([tool("a", { input: { q: "{{ input.query }}" } })]), { input: {} });
    assert.equal(t.status, "failed");
    assert.equal(t.error!.stepPath, "a");
    assert.equal(t.error!.at, "input");
    assert.equal(t.error!.expression, "input.query");
  });

  test("the first truthy case wins and later cases are not evaluated; a string 'false' is truthy", () => {
    const t = simulate(wf([
      tool("a"),
      decision("d", [{ when: "{{ steps.a.output }}", to: "x" }, { when: "{{ input.missing }}", to: "y" }], "y", { needs: ["a"] }),
      text("x"), text("y"),
    ], {}), { input: {}, outputs: { a: "false" } });
    assert.equal(t.steps[1].chosen, "x");
    assert.equal(t.steps[1].cases!.length, 1);
    assert.deepEqual(t.steps[2].path, "x");
  });

  test("no truthy case: the default; an error in an evaluated case fails the decision", () => {
    const ok = simulate(wf([tool("a"), decision("d", [{ when: "{{ steps.a.output }}", to: "x" }], "y", { needs: ["a"] }), text("x"), text("y")]), { input: {}, outputs: { a: 0 } });
    assert.equal(ok.steps[1].chosen, "y");
    assert.equal(ok.steps[1].byDefault, true);
    const bad = simulate(wf([tool("a"), decision("d", [{ when: "{{ len(steps.a.output) }}", to: "x" }], "y", { needs: ["a"] }), text("x"), text("y")]), { input: {}, outputs: { a: 0 } });
    assert.equal(bad.status, "failed");
    assert.equal(bad.error!.at, "with.cases[0].when");
    assert.equal(bad.error!.stepPath, "d");
  });

  test("a decision's own input is resolved first and fails the run although it is never used", () => {
    const t = simulate(wf([decision("d", [], "x", { input: "{{ input.nope }}" }), text("x")]), { input: {} });
    assert.equal(t.status, "failed");
    assert.equal(t.error!.at, "input");
  });
});

describe("what the model receives (spec 8.2, 8.3; the documentation's contract)", () => {
  const context = { input: { a: 1 }, steps: Object.create(null) };
  test("prompt, a blank line, Input:, and the input as JSON indented by two spaces", () => {
    const r = buildPrompt({ prompt: "Sum {{ input.a }}.", system: "Be brief about {{ input.a }}." }, { a: 1, b: [true, null] }, context);
    assert.ok(r.ok);
    assert.equal(r.prompt.user, "Sum 1.\n\nInput:\n{\n  \"a\": 1,\n  \"b\": [\n    true,\n    null\n  ]\n}");
    assert.equal(r.prompt.system, "Be brief about 1.");
  });
  test("a string input as it is; without a prompt (or an empty one) the input alone; undefined as the text undefined", () => {
    assert.deepEqual(buildPrompt({ prompt: "P" }, "hello", context), { ok: true, prompt: { system: "", user: "P\n\nInput:\nhello", notes: [] } });
    assert.equal((buildPrompt({}, "hello", context) as { prompt: { user: string } }).prompt.user, "hello");
    assert.equal((buildPrompt({ prompt: "" }, { a: 1 }, context) as { prompt: { user: string } }).prompt.user, "{\n  \"a\": 1\n}");
    assert.equal((buildPrompt({ prompt: "P" }, undefined, context) as { prompt: { user: string } }).prompt.user, "P\n\nInput:\nundefined");
  });
  test("a template-only prompt resolving to an object is compact JSON, with a note that its formatting is unconfirmed", () => {
    const r = buildPrompt({ prompt: "{{ input }}" }, "x", context);
    assert.ok(r.ok);
    assert.equal(r.prompt.user, "{\"a\":1}\n\nInput:\nx");
    assert.match(r.prompt.notes[0], /not confirmed/);
  });
  test("an ai.generate step without a string model fails before its prompt", () => {
    const t = simulate(wf([{ id: "a", uses: "ai.generate", with: {}, output: { mode: "text" } }]), { input: {} });
    assert.equal(t.error!.runtime, "Step 'a' requires string config 'model'.");
  });
});

describe("output checks (spec 13) and the workflow's own checks (10.4)", () => {
  test("mode checks: text, choice values, object, array; json accepts anything", () => {
    assert.deepEqual(checkOutput("s", { mode: "text" }, 3), { ok: false, error: { message: 'The output of step "s" must be text, not the number 3.', runtime: "Step 's' output does not match text output mode." } });
    assert.equal(checkOutput("s", { mode: "choice", values: ["a", "b"] }, "c").ok, false);
    assert.equal(checkOutput("s", { mode: "choice", values: ["a", "b"] }, "b").ok, true);
    assert.equal(checkOutput("s", { mode: "object" }, []).ok, false);
    assert.equal(checkOutput("s", { mode: "json" }, [1]).ok, true);
  });
  test("array mode unwraps items, elements, candidates or data (in that order)", () => {
    assert.deepEqual(checkOutput("s", { mode: "array" }, { data: [2], elements: [1] }), { ok: true, value: [1] });
    assert.equal(checkOutput("s", { mode: "array" }, { list: [1] }).ok, false);
  });
  test("schema: Ajv's errorsText and per-error findings; false rejects all", () => {
    const r = checkOutput("s", { mode: "object", schema: { type: "object", required: ["label"], properties: { score: { type: "number" } } } }, { score: "x" });
    assert.deepEqual(r, { ok: false, error: {
      message: 'The output of step "s" does not match its output.schema: the output must have property "label"; the output.score must be number.',
      runtime: "Step 's' output does not match schema: data must have required property 'label', data/score must be number", findings: ["must have required property 'label'", "/score must be number"],
    } });
    assert.equal((checkOutput("s", { mode: "json", schema: false }, 1) as { error: { runtime: string } }).error.runtime, "Step 's' output schema rejects all values.");
  });
  test("a sample that does not match stops the run at the step (step_schema_error); ai.generate notes the repair", () => {
    const t = simulate(wf([{ id: "a", uses: "ai.generate", with: { model: "m" }, output: { mode: "choice", values: ["x"] } }]), { input: {}, outputs: { a: "y" } });
    assert.equal(t.status, "failed");
    assert.equal(t.error!.cause, "step_schema_error");
    assert.match(t.steps[0].notes!.join(" "), /re-asks the model/);
  });
  test("the workflow input against input.schema before anything runs", () => {
    const t = simulate(wf([text("a")], { input: { schema: { type: "object", required: ["q"] } } }), { input: {} });
    assert.equal(t.error!.runtime, "Workflow input does not match schema: data must have required property 'q'");
    assert.equal(t.error!.message, 'The workflow input does not match input.schema: input must have property "q".');
    assert.equal(t.steps.length, 0);
  });
  test("a terminal step whose mode cannot match the output schema's type fails before the first step", () => {
    const t = simulate(wf([text("a")], { output: { schema: { type: "object" } } }), { input: {} });
    assert.equal(t.error!.runtime, "Terminal step 'a' output mode 'text' is incompatible with workflow output schema type 'object'.");
    assert.equal(t.steps.length, 0);
  });
  test("the workflow output against output.schema, at the terminal step", () => {
    const t = simulate(wf([tool("a")], { output: { schema: { type: "object", required: ["x"] } } }), { input: {}, outputs: { a: {} } });
    assert.equal(t.error!.stepPath, "a");
    assert.equal(t.error!.runtime, "Workflow output does not match schema: data must have required property 'x'");
  });
  test("outputs are stored in canonical key order, as the runtime reads them back", () => {
    const t = simulate(wf([tool("a")]), { input: {}, outputs: { a: { b: 1, a: 2, 10: 3, 9: 4 } } });
    assert.deepEqual(Object.keys(t.output as object), ["9", "10", "a", "b"]);
  });
});

describe("parallel (spec 12)", () => {
  const par = (w: Step, body: Step[], extra: Step = {}): Step => ({
    id: "p", uses: "parallel",
    with: { items: "{{ input.items }}", itemKey: "{{ item.k }}", cardinality: { kind: "matches_items" }, maxBranches: 5, maxConcurrency: 2, failureMode: "fail_fast", fanIn: { order: "input", output: "array" }, ...w },
    steps: body, output: { mode: "array" }, ...extra,
  });
  const items = [{ k: "b 1.5" }, { k: "a" }];

  test("branch paths encode the item key (encodeURIComponent, and . as %2E); fan-in envelopes in item order", () => {
    assert.equal(encodeItemKey("cand 1.5"), "cand%201%2E5");
    const t = simulate(wf([par({}, [text("w", { with: { model: "m", prompt: "{{ item.k }}" } })])]), { input: { items } });
    assert.equal(t.status, "completed");
    assert.deepEqual(paths(t), ["p", "p[b%201%2E5].w", "p[a].w"]);
    assert.deepEqual((t.output as Array<{ itemKey: string; status: string; output: unknown }>).map((e) => [e.itemKey, e.status, e.output]), [["b 1.5", "completed", "text from step w"], ["a", "completed", "text from step w"]]);
    assert.deepEqual(Object.keys((t.output as object[])[0]), ["artifacts", "itemKey", "output", "outputRef", "status"]);
    assert.match(t.steps[1].user!, /^b 1\.5\n\nInput:\n/);
  });

  test("fanIn.order itemKey sorts by UTF-16 code units; samples per item key or per item index", () => {
    const t = simulate(wf([par({ fanIn: { order: "itemKey", output: "array" } }, [text("w")])]), { input: { items: [{ k: "a" }, { k: "B" }, { k: "10" }, { k: "9" }] }, outputs: { w: { a: "A", B: "b", 10: "ten", 9: "nine" } } });
    assert.deepEqual((t.output as Array<{ itemKey: string; output: string }>).map((e) => `${e.itemKey}=${e.output}`), ["10=ten", "9=nine", "B=b", "a=A"]);
    const byIndex = simulate(wf([par({}, [text("w")])]), { input: { items } , outputs: { w: ["first", "second"] } });
    assert.deepEqual((byIndex.output as Array<{ output: string }>).map((e) => e.output), ["first", "second"]);
  });

  test("items not an array, too many, itemKey not a non-empty string, duplicate keys: runtime_config_error at the parallel step", () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ items: 3 }, /items expression must resolve to an array/],
      [{ items: [1, 2, 3, 4, 5, 6].map((k) => ({ k: `k${k}` })) }, /resolved 6 item\(s\), exceeding maxBranches 5/],
      [{ items: [{ k: 123 }] }, /itemKey must resolve to a non-empty string/],
      [{ items: [{ k: "x" }, { k: "x" }] }, /Duplicate itemKey 'x' in parallel step 'p'/],
    ];
    for (const [input, message] of cases) {
      const t = simulate(wf([par({}, [text("w")])]), { input });
      assert.equal(t.status, "failed");
      assert.match(t.error!.runtime!, message);
      assert.equal(t.error!.stepPath, "p");
      assert.equal(t.error!.cause, "runtime_config_error");
    }
  });

  test("fail_fast: the first branch failure fails the step; all_settled: a failed envelope, the others run", () => {
    const body = [tool("w", { input: "{{ item.v }}" })];
    const input = { items: [{ k: "a" }, { k: "b", v: 1 }] };
    const fast = simulate(wf([par({}, body)]), { input });
    assert.equal(fast.status, "failed");
    assert.equal(fast.error!.stepPath, "p[a].w");
    assert.deepEqual(paths(fast), ["p", "p[a].w"]);
    const settled = simulate(wf([par({ failureMode: "all_settled" }, body)]), { input });
    assert.equal(settled.status, "completed");
    const [a, b] = settled.output as Array<Record<string, unknown>>;
    assert.equal(a.status, "failed");
    assert.equal((a.error as { failedStepPath: string }).failedStepPath, "p[a].w");
    assert.equal((a.error as { retriable: boolean }).retriable, false);
    assert.equal(b.status, "completed");
  });

  test("terminal causes (an output schema violation, maxVisits) fail the parallel step under all_settled too", () => {
    const t = simulate(wf([par({ failureMode: "all_settled" }, [{ id: "w", uses: "ai.generate", with: { model: "m" }, output: { mode: "choice", values: ["ok"] } }])]), { input: { items }, outputs: { w: "nope" } });
    assert.equal(t.status, "failed");
    assert.equal(t.error!.cause, "step_schema_error");
  });

  test("a body with two terminal steps fails every branch with Ambiguous terminal steps", () => {
    const t = simulate(wf([par({ failureMode: "all_settled" }, [text("x"), text("y")])]), { input: { items } });
    assert.equal(t.status, "completed");
    assert.deepEqual((t.output as Array<{ status: string; error: { message: string } }>).map((e) => [e.status, e.error.message]), [["failed", "Ambiguous terminal steps: x, y."], ["failed", "Ambiguous terminal steps: x, y."]]);
  });

  test("fanIn.outputStep names the branch result; a step the branch did not run: missing final output", () => {
    const body = [tool("first"), decision("d", [{ when: "{{ true }}", to: "end" }], "second", { needs: ["first"] }), text("second")];
    const t = simulate(wf([par({ failureMode: "all_settled", fanIn: { order: "input", output: "array", outputStep: "second" } }, body)]), { input: { items: [{ k: "a" }] } });
    assert.equal((t.output as Array<{ error: { message: string } }>)[0].error.message, "Parallel branch 'p[a]' is missing final output.");
  });

  test("a body step sees only the top-level steps its parallel step needs, even completed ones", () => {
    const doc = (needs: string[]): Step => wf([
      tool("top"), tool("other", { needs: ["top"] }),
      par({}, [text("w", { with: { model: "m", prompt: "{{ steps.other.output }}" } })], { needs }),
      text("fin", { needs: ["other", "p"] }),
    ]);
    const seen = simulate(doc(["other"]), { input: { items: [{ k: "a" }] }, outputs: { other: "O" } });
    assert.equal(seen.status, "completed");
    assert.match(seen.steps[3].user!, /^O\n/);
    const unseen = simulate(doc(["top"]), { input: { items: [{ k: "a" }] }, outputs: { other: "O" } });
    assert.deepEqual(paths(unseen), ["top", "other", "p", "p[a].w"]);
    assert.equal(unseen.status, "failed");
    assert.equal(unseen.error!.stepPath, "p[a].w");
    assert.match(unseen.error!.runtime ?? unseen.error!.message, /incomplete step 'other'/);
  });
});

describe("generated samples", () => {
  test("first choice value, a text naming the step, the smallest instance of a schema; marked generated", () => {
    assert.deepEqual(sampleOfOutput("s", { mode: "choice", values: ["b", "a"] }), { value: "b" });
    assert.deepEqual(sampleOfOutput("s", { mode: "text" }), { value: "text from step s" });
    assert.deepEqual(sampleOfSchema({ type: "object", required: ["n", "tags", "kind"], properties: { n: { type: "integer", minimum: 3 }, tags: { type: "array", minItems: 1, items: { type: "string" } }, kind: { enum: ["x", "y"] }, opt: { type: "string" } } }, "r"),
      { value: { n: 3, tags: ["tags1"], kind: "x" } });
    const t = simulate(wf([tool("a"), text("b", { needs: ["a"] })]), { input: {}, outputs: { b: "given" } });
    assert.deepEqual(t.steps.map((s) => s.sample), ["generated", "given"]);
  });
  test("every generated value satisfies its schema, or says why not", () => {
    const schemas = [{ type: "string", minLength: 30, maxLength: 40 }, { type: "number", exclusiveMinimum: 5, multipleOf: 2 }, { type: "array", items: [{ const: 1 }], minItems: 1 }, { anyOf: [{ type: "boolean" }, { type: "null" }] }, { type: "string", pattern: "^[0-9]+$" }];
    for (const schema of schemas) {
      const g = sampleOfSchema(schema, "v");
      assert.equal(g.problem === undefined, validateInstance(schema, g.value).length === 0, JSON.stringify(schema));
    }
    assert.match(sampleOfSchema({ type: "string", pattern: "^[0-9]+$", minLength: 2 }, "v").problem!, /must match pattern/);
  });
});

describe("the instance validator (Ajv's messages)", () => {
  const cases: Array<[unknown, unknown, string]> = [
    [{ type: "integer" }, 1.5, "data must be integer"],
    [{ type: ["string", "null"] }, 1, "data must be string,null"],
    [{ properties: { a: { minLength: 2 } } }, { a: "😀" }, "data/a must NOT have fewer than 2 characters"],
    [{ additionalProperties: false, properties: { a: true } }, { a: 1, b: 2 }, "data must NOT have additional properties"],
    [{ items: { maximum: 3 } }, [1, 4], "data/1 must be <= 3"],
    [{ uniqueItems: true }, [1, 2, 1], "data must NOT have duplicate items (items ## 0 and 2 are identical)"],
    [{ oneOf: [{ type: "number" }, { type: "integer" }] }, 1, "data must match exactly one schema in oneOf"],
    [{ definitions: { n: { type: "number" } }, properties: { x: { $ref: "#/definitions/n" } } }, { x: "1" }, "data/x must be number"],
    [{ properties: { "a/b": { const: 1 } } }, { "a/b": 2 }, "data/a~1b must be equal to constant"],
    [{ enum: [1, 2] }, 3, "data must be equal to one of the allowed values"],
  ];
  for (const [schema, value, expected] of cases) {
    test(`${JSON.stringify(schema)} on ${JSON.stringify(value)}`, () => assert.equal(errorsText(validateInstance(schema, value)), expected));
  }
  test("deep values and self-referencing schemas stay bounded", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 2000; i++) deep = [deep];
    const errors = validateInstance({ items: { $ref: "#" } }, deep);
    assert.ok(errors.length >= 1);
    assert.match(errors[0].message, /nests deeper/);
  });
});

describe("hostile input stays bounded", () => {
  const doc = wf([{ id: "a", uses: "ai.generate", with: { model: "m", prompt: "{{ input }}" }, output: { mode: "json" } }]);
  test("values nested 20,000 deep (input, output) and 5 MB strings end the trace with a message, never a throw", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const input = simulate(doc, { input: deep });
    assert.equal(input.status, "failed");
    assert.equal(input.error!.cause, "dry_run_limit");
    assert.equal(input.error!.message, "with.prompt nests too deeply for LWIR Tools to write it as JSON.");
    const output = simulate(doc, { input: {}, outputs: { a: deep } });
    assert.equal(output.status, "failed");
    assert.match(output.error!.message, /^The output cannot be stored as JSON \(not hashable: nesting deeper than 5000 levels/);
    const long = simulate(doc, { input: "y".repeat(5_000_000), outputs: { a: "z".repeat(5_000_000) } });
    assert.equal(long.status, "completed");
    assert.equal(long.steps[0].user!.length, 5_000_000 + "\n\nInput:\n".length + 5_000_000);
  });
});

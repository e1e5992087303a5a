// The checks that need no sample (server/src/run/checks, service/runNotices.ts): each check on a document
// that triggers it, in JSON and YAML, where it squiggles, the near misses it must leave alone, its quick
// fix, the rule levels, and that it never touches validity.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { stringify } from "yaml";
import type { Diagnostic } from "vscode-languageserver-types";
import { analyzeText } from "../../server/src/service/analysis";
import { applyRuleLevels, toDiagnostics } from "../../server/src/service/diagnostics";
import { provideCodeActions } from "../../server/src/service/codeActions";
import { applyEdits } from "../../server/src/service/edits";
import { RUN_CHECK_CODES } from "../../server/src/run/checks";
import { checkBytes, isFailure } from "../../server/src/cli/check";
import { resolvedStrings, stepReads } from "../../server/src/run/checks/reads";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

function workflow(steps: Json[], output: Json = { type: "string" }): Json {
  return {
    apiVersion: "littleworkflow.dev/v0.1",
    kind: "Workflow",
    metadata: { name: "run-checks" },
    input: { schema: { type: "object", properties: { topic: { type: "string" }, list: { type: "array", items: { type: "string" } } } } },
    output: { schema: output },
    permissions: { models: ["m"], tools: ["t"] },
    steps,
  };
}

const ai = (id: string, prompt = "Write", extra: Json = {}): Json => ({ id, uses: "ai.generate", with: { model: "m", prompt }, output: { mode: "text" }, ...extra });
const decision = (id: string, needs: string[], cases: Json[], def: string, extra: Json = {}): Json => ({ id, uses: "decision", needs, with: { cases, default: def }, ...extra });
const FAN_IN_OUTPUT = {
  mode: "array",
  schema: { type: "array", items: { type: "object", required: ["itemKey", "status", "artifacts"], properties: { itemKey: {}, status: {}, artifacts: {}, output: {} } } },
};
function parallel(id: string, body: Json[], extra: Json = {}): Json {
  return {
    id, uses: "parallel",
    with: { items: "{{ input.list }}", itemKey: "{{ item }}", cardinality: { kind: "matches_items" }, maxBranches: 10, maxConcurrency: 2, failureMode: "all_settled", fanIn: { order: "input", output: "array" } },
    steps: body, output: FAN_IN_OUTPUT, ...extra,
  };
}

/** The run-time notices of a document in one format: `code line:col-line:col text`. */
function notices(doc: Json, format: "json" | "yaml"): string[] {
  const text = format === "json" ? JSON.stringify(doc, null, 2) : stringify(doc);
  const analysis = analyzeText(text, format);
  assert.deepEqual(analysis.findings.map((f) => `${f.code} ${f.path}`), [], "the runtime accepts the document");
  return toDiagnostics(analysis).filter((d) => RUN_CHECK_CODES.includes(String(d.code))).map((d) => `${d.code} ${slice(text, d)}`);
}

function slice(text: string, d: Diagnostic): string {
  const lines = text.split("\n");
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return text.slice(offset(d.range.start), offset(d.range.end));
}

/** The same notices in JSON and YAML (the squiggled text, which may differ by quoting, is compared per format). */
function both(doc: Json): { json: string[]; yaml: string[] } {
  return { json: notices(doc, "json"), yaml: notices(doc, "yaml") };
}

describe("lwir.needs_decision_step", () => {
  const route = decision("route", ["classify"], [{ when: "{{ steps.classify.output == 'a' }}", to: "a" }], "b");
  test("a step that needs a decision step: on the needs entry", () => {
    const doc = workflow([ai("classify"), route, ai("a"), ai("b"), ai("after", "Go", { needs: ["route"] })]);
    assert.deepEqual(both(doc), { json: ['lwir.needs_decision_step "route"'], yaml: ["lwir.needs_decision_step route"] });
    const message = toDiagnostics(analyzeText(JSON.stringify(doc), "json")).find((d) => d.code === "lwir.needs_decision_step")!.message;
    assert.equal(message, '"after" needs the decision step "route", and a decision never counts as done for needs: "after" can never run. Name what "route" needs instead ("classify"), or make this step one of its targets.');
  });

  test("near misses: a decision target that needs its decision (it runs when chosen), a step that needs a plain step", () => {
    const target = workflow([ai("classify"), decision("route", ["classify"], [{ when: "{{ steps.classify.output == 'a' }}", to: "a" }], "end"), ai("a", "Go", { needs: ["route"] })]);
    assert.deepEqual(both(target), { json: [], yaml: [] });
    assert.deepEqual(both(workflow([ai("classify"), ai("after", "Go", { needs: ["classify"] })])), { json: [], yaml: [] });
  });
});

describe("lwir.needs_unchosen_target", () => {
  const route = (def = "answer", extra: Json = {}) => decision("route", ["classify"], [{ when: "{{ steps.classify.output == 'bug' }}", to: "file_bug" }], def, extra);
  const steps = (needs: string[], before: Json[] = [], def?: string, extra: Json = {}) => [
    ...before, ai("classify"), route(def, extra), ai("file_bug"), ai("answer"), ai("notify", "Go", { needs }),
  ];

  test("a step that needs both branches of a decision: one notice per needs entry, naming the other outcome", () => {
    assert.deepEqual(both(workflow(steps(["file_bug", "answer"]))), {
      json: ['lwir.needs_unchosen_target "file_bug"', 'lwir.needs_unchosen_target "answer"'],
      yaml: ["lwir.needs_unchosen_target file_bug", "lwir.needs_unchosen_target answer"],
    });
    const messages = toDiagnostics(analyzeText(JSON.stringify(workflow(steps(["file_bug"]))), "json")).filter((d) => d.code === "lwir.needs_unchosen_target").map((d) => d.message);
    assert.deepEqual(messages, ['"notify" needs "file_bug", which runs only when the decision "route" chooses it: whenever "route" chooses "answer" instead, "notify" never runs (nor does any step that needs it).']);
  });

  test("near misses: the target runs before the decision, the other outcome is end, the decision may run again, another decision may choose it, it is not the first decision", () => {
    // file_bug comes first in document order: runnable before route's needs are met, it runs at once
    const early = workflow([ai("file_bug"), ai("classify"), route(), ai("answer"), ai("notify", "Go", { needs: ["file_bug"] })]);
    assert.deepEqual(both(early), { json: [], yaml: [] });
    assert.deepEqual(both(workflow(steps(["file_bug", "answer"], [], "end"))), { json: [], yaml: [] });
    assert.deepEqual(both(workflow(steps(["file_bug"], [], "answer", { maxVisits: 2 }))), { json: [], yaml: [] });
    const twice = workflow([...steps(["file_bug"]), decision("again", ["classify"], [{ when: "{{ steps.classify.output == 'x' }}", to: "file_bug" }], "end")]);
    assert.deepEqual(notices(twice, "json").filter((n) => n.startsWith("lwir.needs_unchosen_target")), []);
    // followup is chosen by another decision, and a chosen step runs whatever its needs
    const chosen = workflow([...steps(["file_bug"]).slice(0, 4), decision("again", ["classify"], [{ when: "{{ steps.classify.output == 'x' }}", to: "followup" }], "end"),
      ai("followup", "Go", { needs: ["file_bug"] })]);
    assert.deepEqual(notices(chosen, "json").filter((n) => n.startsWith("lwir.needs_unchosen_target")), []);
    const first = workflow([ai("pre"), decision("gate", ["pre"], [{ when: "{{ steps.pre.output == 'x' }}", to: "end" }], "classify"), ...steps(["file_bug"])]);
    assert.deepEqual(notices(first, "json").filter((n) => n.startsWith("lwir.needs_unchosen_target")), []);
  });
});

describe("lwir.body_terminal_ambiguous", () => {
  test("a body with two final steps: on the body's steps key", () => {
    const doc = workflow([parallel("fan", [ai("score", "Score {{ item }}"), ai("tag", "Tag {{ item }}")])], FAN_IN_OUTPUT.schema);
    assert.deepEqual(both(doc), { json: ['lwir.body_terminal_ambiguous "steps"'], yaml: ["lwir.body_terminal_ambiguous steps"] });
  });

  test("near misses: one final step, or the second is a decision's target", () => {
    const chained = workflow([parallel("fan", [ai("score", "Score {{ item }}"), ai("tag", "Tag {{ item }}", { needs: ["score"] })])], FAN_IN_OUTPUT.schema);
    assert.deepEqual(both(chained), { json: [], yaml: [] });
    const routed = workflow([parallel("fan", [
      ai("score", "Score {{ item }}"),
      decision("route", ["score"], [{ when: "{{ steps.score.output == 'x' }}", to: "tag" }], "end"),
      ai("tag", "Tag {{ item }}"),
    ])], FAN_IN_OUTPUT.schema);
    assert.deepEqual(both(routed), { json: [], yaml: [] });
  });
});

describe("lwir.terminal_output_type", () => {
  test("a text step under an object output.schema: on output.mode", () => {
    const doc = workflow([ai("write")], { type: "object" });
    assert.deepEqual(both(doc), { json: ['lwir.terminal_output_type "text"'], yaml: ["lwir.terminal_output_type text"] });
  });

  test("a json step whose schema type differs: on its schema's type", () => {
    const doc = workflow([{ id: "data", uses: "tool.call", with: { tool: "t" }, output: { mode: "json", schema: { type: "array" } } }], { type: "object" });
    assert.deepEqual(both(doc), { json: ['lwir.terminal_output_type "array"'], yaml: ["lwir.terminal_output_type array"] });
  });

  test("a parallel step (an array) under an object output.schema", () => {
    const doc = workflow([parallel("fan", [ai("score", "Score {{ item }}")])], { type: "object" });
    assert.deepEqual(both(doc), { json: ['lwir.terminal_output_type "array"'], yaml: ["lwir.terminal_output_type array"] });
  });

  test("near misses: types agree, no type, a type list, number and integer, json without a schema, no single final step", () => {
    const json = (schema: Json) => workflow([{ id: "data", uses: "tool.call", with: { tool: "t" }, output: { mode: "json", ...(schema ? { schema } : {}) } }], { type: "number" });
    for (const doc of [
      workflow([ai("write")], { type: "string" }),
      workflow([ai("write")], {}),
      workflow([ai("write")], true),
      workflow([ai("write")], { type: ["object", "null"].filter((t) => t !== "object") }),
      json({ type: "integer" }),
      json(undefined),
      workflow([ai("a"), decision("route", ["a"], [], "end")], { type: "object" }),
    ]) assert.deepEqual(both(doc), { json: [], yaml: [] });
  });
});

describe("lwir.loop_read_before_run", () => {
  const loop = (draftInput: Json, routeCases?: Json[]): Json => workflow([
    { id: "draft", uses: "ai.generate", maxVisits: 3, with: { model: "m", prompt: "Draft" }, input: draftInput, output: { mode: "text" } },
    { id: "critique", uses: "ai.generate", needs: ["draft"], maxVisits: 3, with: { model: "m", prompt: "Critique {{ steps.draft.lastOutput }}" }, output: { mode: "choice", values: ["ok", "again"] } },
    decision("route", ["critique"], routeCases ?? [{ when: "{{ steps.critique.lastOutput == 'ok' }}", to: "end" }], "draft", { maxVisits: 3 }),
  ]);

  test("the first step of a loop reads the critique that runs after it: on the read", () => {
    const doc = loop({ feedback: "Earlier: {{ steps.critique.lastOutput }}" });
    assert.deepEqual(both(doc), { json: ["lwir.loop_read_before_run steps.critique.lastOutput"], yaml: ["lwir.loop_read_before_run steps.critique.lastOutput"] });
  });

  test("in the prompt too (the format's documentation resolves it), in a comparison and in a function's argument", () => {
    const doc = loop({ a: "{{ len(steps.critique.allVisits) > 0 }}", b: "{{ steps.critique.lastOutput == 'ok' || input.topic }}" });
    doc.steps[0].with.prompt = "Draft; earlier feedback: {{ steps.critique.lastOutput }}";
    assert.deepEqual(notices(doc, "json"), [
      "lwir.loop_read_before_run steps.critique.allVisits", "lwir.loop_read_before_run steps.critique.lastOutput", "lwir.loop_read_before_run steps.critique.lastOutput",
    ]);
  });

  test("near misses: inside coalesce, after an operand that may decide, a later case, a step that ran before", () => {
    assert.deepEqual(both(loop({ feedback: "{{ coalesce(steps.critique.lastOutput, 'none') }}" })), { json: [], yaml: [] });
    assert.deepEqual(both(loop({ feedback: "{{ coalesce(upper(steps.critique.lastOutput), 'none') }}" })), { json: [], yaml: [] });
    assert.deepEqual(both(loop({ feedback: "{{ input.topic || steps.critique.lastOutput }}" })), { json: [], yaml: [] });
    // route reads critique, which ran before it on every pass
    assert.deepEqual(both(loop({ topic: "{{ input.topic }}" })), { json: [], yaml: [] });
    // a later case is evaluated only when the first is false
    const later = loop({ topic: "{{ input.topic }}" }, [{ when: "{{ input.topic == 'x' }}", to: "end" }, { when: "{{ steps.critique.lastOutput == 'ok' }}", to: "end" }]);
    assert.deepEqual(both(later), { json: [], yaml: [] });
  });

  // worker reads fix, which needs worker and is chosen by route, which needs worker too: fix cannot run first
  const chosen = (extra: Json[] = []): Json => workflow([
    ...extra,
    { id: "worker", uses: "ai.generate", maxVisits: 3, with: { model: "m", prompt: "Work" }, input: { fix: "{{ steps.fix.lastOutput }}" }, output: { mode: "text" } },
    decision("route", ["worker"], [{ when: "{{ steps.worker.lastOutput == 'bad' }}", to: "fix" }], "end", { maxVisits: 3 }),
    { id: "fix", uses: "ai.generate", needs: ["worker"], maxVisits: 3, with: { model: "m", prompt: "Fix" }, output: { mode: "text" } },
    decision("again", ["fix"], [{ when: "{{ steps.fix.lastOutput == 'x' }}", to: "worker" }], "end", { maxVisits: 3 }),
  ]);

  test("the step read is a decision's target, and that decision runs after the reader too", () => {
    assert.deepEqual(both(chosen()), { json: ["lwir.loop_read_before_run steps.fix.lastOutput"], yaml: ["lwir.loop_read_before_run steps.fix.lastOutput"] });
  });

  test("a decision's later case is evaluated only when the earlier ones are false: nothing said there", () => {
    const gate = (cases: Json[]) => workflow([
      ai("draft", "Draft", { maxVisits: 3 }),
      decision("gate", ["draft"], cases, "polish", { maxVisits: 3 }),
      ai("polish", "Polish", { needs: ["gate"], maxVisits: 3 }),
      decision("back", ["polish"], [], "draft", { maxVisits: 3 }),
    ]);
    const read = { when: "{{ steps.polish.lastOutput == 'ok' }}", to: "end" };
    assert.deepEqual(notices(gate([read]), "json"), ["lwir.loop_read_before_run steps.polish.lastOutput"]);
    assert.deepEqual(notices(gate([{ when: "{{ input.topic == 'x' }}", to: "end" }, read]), "json"), []);
  });

  test("near miss: a decision that does not wait for the reader may choose the step read first", () => {
    const doc = chosen([decision("early", [], [{ when: "{{ input.topic == 'fix' }}", to: "fix" }], "worker")]);
    assert.deepEqual(both(doc), { json: [], yaml: [] });
  });

  test("quick fix: Read … through coalesce, after which the notice is gone and the document still valid", () => {
    for (const format of ["json", "yaml"] as const) {
      const doc = loop({ feedback: "Earlier: {{ steps.critique.lastOutput }}" });
      const text = format === "json" ? JSON.stringify(doc, null, 2) : stringify(doc);
      const analysis = analyzeText(text, format);
      const diagnostic = toDiagnostics(analysis).find((d) => d.code === "lwir.loop_read_before_run")!;
      const actions = provideCodeActions(analysis, { textDocument: { uri: "file:///x" }, range: diagnostic.range, context: { diagnostics: [diagnostic], only: ["quickfix"] } });
      assert.deepEqual(actions.map((a) => a.title), ["Read steps.critique.lastOutput through coalesce"], format);
      const edits = actions[0].edit!.changes!["file:///x"];
      const lines = text.split("\n");
      const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
      const fixed = applyEdits(text, edits.map((e) => ({ start: offset(e.range.start), end: offset(e.range.end), newText: e.newText })));
      const after = analyzeText(fixed, format);
      assert.equal(after.valid, true, format);
      assert.equal((after.document.value as Json).steps[0].input.feedback, 'Earlier: {{ coalesce(steps.critique.lastOutput, "") }}', format);
      assert.deepEqual(toDiagnostics(after).filter((d) => RUN_CHECK_CODES.includes(String(d.code))), [], format);
    }
  });
});

describe("lwir.body_reads_multi_visit_step", () => {
  const doc = (maxVisits: number, read = "{{ steps.draft.lastOutput }}") => workflow([
    ai("draft", "Draft", { maxVisits }),
    parallel("fan", [ai("score", `Score {{ item }} against ${read}`, { needs: ["draft"] })], { needs: ["draft"] }),
  ], FAN_IN_OUTPUT.schema);

  test("a body step reads a top-level step with maxVisits 2: on the read, inside coalesce too", () => {
    assert.deepEqual(both(doc(2)), { json: ["lwir.body_reads_multi_visit_step steps.draft.lastOutput"], yaml: ["lwir.body_reads_multi_visit_step steps.draft.lastOutput"] });
    assert.deepEqual(notices(doc(2, "{{ coalesce(steps.draft.allVisits, 'none') }}"), "json"), ["lwir.body_reads_multi_visit_step steps.draft.allVisits"]);
  });

  test("near misses: a single-visit step, a multi-visit step of the body itself, a body step of the same id", () => {
    assert.deepEqual(both(doc(1)), { json: [], yaml: [] });
    const shadowed = doc(2);
    shadowed.steps[1].steps.unshift(ai("draft", "Draft {{ item }}"));
    assert.deepEqual(both(shadowed), { json: [], yaml: [] });
    const local = workflow([parallel("fan", [
      ai("draft", "Draft {{ item }}", { maxVisits: 2 }),
      ai("score", "Score {{ steps.draft.lastOutput }}", { needs: ["draft"] }),
    ])], FAN_IN_OUTPUT.schema);
    assert.deepEqual(both(local), { json: [], yaml: [] });
  });
});

describe("lwir.item_key_not_string", () => {
  const ids = (type: Json, itemKey = "{{ item.id }}") => {
    const doc = workflow([parallel("fan", [ai("score", "Score {{ item.name }}")])], FAN_IN_OUTPUT.schema);
    doc.input.schema.properties.candidates = { type: "array", items: { type: "object", properties: { id: type, name: { type: "string" } } } };
    doc.steps[0].with.items = "{{ input.candidates }}";
    doc.steps[0].with.itemKey = itemKey;
    return doc;
  };

  test("a numeric id: on the path, with its quick fix; a comparison and len() too", () => {
    assert.deepEqual(both(ids({ type: "integer" })), { json: ["lwir.item_key_not_string item.id"], yaml: ["lwir.item_key_not_string item.id"] });
    assert.deepEqual(notices(ids({ type: ["number", "null"] }), "json"), ["lwir.item_key_not_string item.id"]);
    assert.deepEqual(notices(ids({ type: "string" }, "{{ item.id == 'x' }}"), "json"), ["lwir.item_key_not_string item.id == 'x'"]);
    assert.deepEqual(notices(ids({ type: "string" }, "{{ len(item.name) }}"), "json"), ["lwir.item_key_not_string len(item.name)"]);
    const text = JSON.stringify(ids({ type: "integer" }), null, 2);
    const analysis = analyzeText(text, "json");
    const diagnostic = toDiagnostics(analysis).find((d) => d.code === "lwir.item_key_not_string")!;
    assert.equal(diagnostic.message, 'itemKey must resolve to a non-empty string, but item.id is declared as an integer: the parallel step "fan" fails on its first item. Write the number as text: json(item.id).');
    const actions = provideCodeActions(analysis, { textDocument: { uri: "file:///x" }, range: diagnostic.range, context: { diagnostics: [diagnostic], only: ["quickfix"] } });
    assert.deepEqual(actions.map((a) => a.title), ["Use json(item.id) as the key"]);
  });

  test("near misses: a string, a type that includes string, no declared type, a function that gives text", () => {
    for (const doc of [ids({ type: "string" }), ids({ type: ["string", "integer"] }), ids({}), ids({ type: "integer" }, "{{ json(item.id) }}"), ids({ type: "integer" }, "{{ sha256(item) }}")]) {
      assert.deepEqual(both(doc), { json: [], yaml: [] });
    }
  });
});

describe("lwir.function_argument_type", () => {
  const counting = (prompt: string, count: Json = { type: "integer" }) => {
    const doc = workflow([ai("write", prompt)]);
    doc.input.schema.properties.count = count;
    doc.input.schema.properties.flag = { type: "boolean" };
    doc.input.schema.properties.when = { type: "object", properties: { day: { type: "string" } } };
    return doc;
  };

  test("len of a number, date of a boolean or an object: on the call, inside coalesce too", () => {
    assert.deepEqual(both(counting("{{ len(input.count) }} items")), { json: ["lwir.function_argument_type len(input.count)"], yaml: ["lwir.function_argument_type len(input.count)"] });
    assert.deepEqual(notices(counting("{{ coalesce(date(input.flag), 'x') }} and {{ date(input.when) }}"), "json"),
      ["lwir.function_argument_type date(input.flag)", "lwir.function_argument_type date(input.when)"]);
    assert.deepEqual(notices(counting("{{ len(input.count) }}", { type: ["integer", "null"] }), "json"), ["lwir.function_argument_type len(input.count)"]);
    // a name every object has (its own warning) is not one of the two functions
    assert.deepEqual(notices(counting("{{ valueOf(input.count) == len(input.count) }}"), "json"), ["lwir.function_argument_type len(input.count)"]);
  });

  test("near misses: len of a string, array or object; date of a string or a number (a year); undeclared types", () => {
    for (const doc of [
      counting("{{ len(input.topic) }} {{ len(input.list) }} {{ len(input.when) }}"),
      counting("{{ date(input.topic) }} {{ date(input.count) }}"),
      counting("{{ len(input.count) }}", { type: ["integer", "string"] }),
      counting("{{ len(input.count) }}", {}),
    ]) assert.deepEqual(both(doc), { json: [], yaml: [] });
  });
});

describe("lwir.unsafe_input_key", () => {
  const tool = (extra: Json) => workflow([{ id: "call", uses: "tool.call", with: { tool: "t" }, output: { mode: "json" }, ...extra }], {});

  test("__proto__, constructor or prototype as a key of the step input, at any depth: on the key", () => {
    assert.deepEqual(both(tool({ input: { job: { constructor: "x" } } })), { json: ['lwir.unsafe_input_key "constructor"'], yaml: ["lwir.unsafe_input_key constructor"] });
    const args = tool({});
    args.steps[0].with.args = { list: [{ prototype: "{{ input.topic }}" }] };
    assert.deepEqual(both(args), { json: ['lwir.unsafe_input_key "prototype"'], yaml: ["lwir.unsafe_input_key prototype"] });
    const proto = JSON.stringify(tool({ input: { a: 1 } }), null, 2).replace('"a": 1', '"__proto__": 1');
    const analysis = analyzeText(proto, "json");
    assert.equal(analysis.valid, true);
    assert.deepEqual(toDiagnostics(analysis).filter((d) => d.code === "lwir.unsafe_input_key").map((d) => slice(proto, d)), ['"__proto__"']);
  });

  test("near misses: with.args beside an input (not resolved), names that only contain the word, keys outside the input", () => {
    const args = tool({ input: { a: 1 } });
    args.steps[0].with.args = { constructor: 1 };
    assert.deepEqual(both(args), { json: [], yaml: [] });
    assert.deepEqual(both(tool({ input: { constructor_: 1, prototypes: 2, proto: 3 } })), { json: [], yaml: [] });
    const outside = tool({});
    outside.steps[0].with.options = { constructor: 1 };
    assert.deepEqual(both(outside), { json: [], yaml: [] });
  });
});

describe("lwir.when_always_true", () => {
  const routed = (when: string, review: Json = { mode: "choice", values: ["yes", "no"] }) => workflow([
    ai("review", "Review {{ input.topic }}", { output: review }),
    decision("route", ["review"], [{ when, to: "publish" }, { when: "{{ input.topic == 'x' }}", to: "end" }], "redo"),
    ai("publish"), ai("redo"),
  ]);

  test("a choice whose values are all non-empty text, an object: on the path", () => {
    assert.deepEqual(both(routed("{{ steps.review.output }}")), { json: ["lwir.when_always_true steps.review.output"], yaml: ["lwir.when_always_true steps.review.output"] });
    const message = toDiagnostics(analyzeText(JSON.stringify(routed("{{ steps.review.output }}")), "json")).find((d) => d.code === "lwir.when_always_true")!.message;
    assert.equal(message, 'steps.review.output is one of "yes", "no", all of which count as true: this case of "route" always matches once it is reached, and the cases after it and the default are never chosen. Compare it with the value meant, as in {{ steps.review.output == "yes" }}.');
    const object = routed("{{ steps.review.output }}", { mode: "object", schema: { type: "object", properties: { ok: { type: "boolean" } } } });
    assert.deepEqual(notices(object, "json"), ["lwir.when_always_true steps.review.output"]);
  });

  test("near misses: a value that may be falsy (\"\" among the values, text, a boolean), a comparison", () => {
    for (const doc of [
      routed("{{ steps.review.output }}", { mode: "choice", values: ["yes", ""] }),
      routed("{{ steps.review.output }}", { mode: "text" }),
      routed("{{ steps.review.output.ok }}", { mode: "object", schema: { type: "object", properties: { ok: { type: "boolean" } } } }),
      routed("{{ steps.review.output == 'yes' }}"),
    ]) assert.deepEqual(both(doc), { json: [], yaml: [] });
  });
});

describe("run-time checks: only documents the runtime accepts, levels like every rule of ours", () => {
  test("a document with a finding gets none of them", () => {
    const doc = workflow([ai("write")], { type: "object" });
    doc.permissions.models = [];
    const analysis = analyzeText(JSON.stringify(doc), "json");
    assert.equal(analysis.valid, false);
    assert.deepEqual(toDiagnostics(analysis).filter((d) => RUN_CHECK_CODES.includes(String(d.code))), []);
  });

  test("warnings by default; lwir.lint.rules turns each off or changes its level", () => {
    const analysis = analyzeText(JSON.stringify(workflow([ai("write")], { type: "object" })), "json");
    const all = toDiagnostics(analysis);
    assert.deepEqual(all.filter((d) => d.code === "lwir.terminal_output_type").map((d) => d.severity), [2]);
    assert.deepEqual(applyRuleLevels(all, { "lwir.terminal_output_type": "off" }).filter((d) => d.code === "lwir.terminal_output_type"), []);
    assert.deepEqual(applyRuleLevels(all, { "lwir.terminal_output_type": "error" }).filter((d) => d.code === "lwir.terminal_output_type").map((d) => d.severity), [1]);
  });
});

describe("run/checks/reads.ts: what the runtime resolves, and which reads it surely evaluates", () => {
  test("the step input is input, else with.args; prompt and system of ai.generate; every when, only the first on every run; items, itemKey not always", () => {
    const list = (step: Json) => resolvedStrings(step, ["steps", 0]).map((r) => `${r.segments.join(".")} ${r.always}`);
    const s = "{{ steps.a.output }}";
    assert.deepEqual(list({ uses: "tool.call", input: { x: s }, with: { tool: "t", args: { y: s } } }), ["steps.0.input.x true"]);
    assert.deepEqual(list({ uses: "tool.call", with: { tool: s, args: { y: s } } }), ["steps.0.with.args.y true"]);
    assert.deepEqual(list({ uses: "ai.generate", with: { model: s, prompt: s, system: s } }), ["steps.0.with.prompt true", "steps.0.with.system true"]);
    assert.deepEqual(list({ uses: "decision", with: { cases: [{ when: s }, { when: s }], default: s } }), ["steps.0.with.cases.0.when true", "steps.0.with.cases.1.when false"]);
    assert.deepEqual(list({ uses: "parallel", with: { items: s, itemKey: s } }), ["steps.0.with.items true", "steps.0.with.itemKey false"]);
    // strings without `steps` cannot read a step
    assert.deepEqual(list({ uses: "ai.generate", with: { prompt: "{{ input.a }}" } }), []);
  });

  test("sure unless behind a || or && operand that may decide first; coalesce swallows at any depth, evaluates its first argument surely", () => {
    const reads = (s: string) => stepReads(s).map((r) => `${r.text} ${r.sure ? "sure" : "maybe"}${r.inCoalesce ? " coalesce" : ""}`);
    assert.deepEqual(reads("{{ steps.a.output.x }} and {{ len(steps.b.allVisits) > 1 }}"), ["steps.a.output.x sure", "steps.b.allVisits sure"]);
    assert.deepEqual(reads("{{ steps.a.output || steps.b.output && steps.c.output }}"), ["steps.a.output sure", "steps.b.output maybe", "steps.c.output maybe"]);
    assert.deepEqual(reads("{{ steps.a.output && steps.b.output || steps.c.output }}"), ["steps.a.output sure", "steps.b.output maybe", "steps.c.output maybe"]);
    assert.deepEqual(reads("{{ coalesce(upper(steps.a.lastOutput), steps.b.output) }}"), ["steps.a.lastOutput sure coalesce", "steps.b.output maybe coalesce"]);
    assert.deepEqual(reads("{{ steps[\"my step\"].lastOutput == 'x' }}"), ['steps["my step"].lastOutput sure']);
    assert.deepEqual(reads("{{ input.steps }} {{ 'steps.a.output' }}"), []);
  });
});

describe("run-time checks in lwir validate", () => {
  test("reported as warnings of the document, which stays valid with its WorkflowVersion; --rule CODE=off drops one, =error raises it", () => {
    const bytes = new TextEncoder().encode(JSON.stringify(workflow([ai("write")], { type: "object" }), null, 2));
    const report = checkBytes("w.lwir.json", bytes);
    assert.ok(!isFailure(report));
    assert.equal(report.valid, true);
    assert.notEqual(report.workflowVersion, null);
    assert.deepEqual((report.notices ?? []).map((n) => `${n.code} ${n.path} ${n.severity}`), ["lwir.terminal_output_type $.steps[0].output.mode warning"]);
    const off = checkBytes("w.lwir.json", bytes, { rules: { "lwir.terminal_output_type": "off" } });
    assert.ok(!isFailure(off));
    assert.deepEqual(off.notices, []);
    const error = checkBytes("w.lwir.json", bytes, { rules: { "lwir.terminal_output_type": "error" } });
    assert.ok(!isFailure(error));
    assert.deepEqual((error.notices ?? []).map((n) => n.severity), ["error"]);
  });
});

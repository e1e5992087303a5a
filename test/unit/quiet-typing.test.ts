// client/src/quietTyping.ts: which of the server's diagnostics VS Code holds back while the user is still
// typing an expression or a step id. The diagnostics are the server's own (analyzeText + toDiagnostics)
// for the text as it stands mid-typing, JSON and YAML.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { analyzeText } from "../../server/src/service/analysis";
import { toDiagnostics } from "../../server/src/service/diagnostics";
import { quietDiagnostics, typingRegion, type LastEdit } from "../../client/src/quietTyping";

const PAUSE = 1500;
const T0 = 1_000_000;

function diagnose(text: string, format: "json" | "yaml") {
  return toDiagnostics(analyzeText(text, format), { uri: "file:///w/doc.lwir." + format });
}

const codeOf = (d: { code?: unknown }) => String(d.code);
const codes = (ds: Array<{ code?: unknown }>) => ds.map(codeOf).sort();

/** The text with the marker (`|`, or `^` where the text has a `|`) removed, and the offset where it was: the cursor. */
function withCursor(marked: string, marker = "|"): { text: string; cursor: number } {
  const cursor = marked.indexOf(marker);
  assert.ok(cursor >= 0 && marked.indexOf(marker, cursor + 1) < 0, `exactly one ${marker} marks the cursor`);
  return { text: marked.slice(0, cursor) + marked.slice(cursor + 1), cursor };
}

/** A keystroke that just ended at the cursor. */
const typedAt = (cursor: number, at = T0): LastEdit => ({ at, offsets: [cursor] });

const YAML_HEAD = `apiVersion: littleworkflow.dev/v0.1
kind: Workflow
metadata:
  name: demo
  version: 0.1.0
input:
  schema:
    type: object
output:
  schema:
    type: string
permissions:
  models: [gpt-4o-mini]
steps:
`;

/** A YAML step; `prompt` is written as given (quotes included). */
const yamlStep = (id: string, prompt: string, extra = "") =>
  `  - id: ${id}\n    uses: ai.generate\n${extra}    with:\n      model: gpt-4o-mini\n      prompt: ${prompt}\n    output:\n      mode: text\n`;

const JSON_HEAD = `{
  "apiVersion": "littleworkflow.dev/v0.1",
  "kind": "Workflow",
  "metadata": {"name": "demo", "version": "0.1.0"},
  "input": {"schema": {"type": "object"}},
  "output": {"schema": {"type": "string"}},
  "permissions": {"models": ["gpt-4o-mini"]},
  "steps": [
`;
const jsonStep = (id: string, prompt: string, needs?: string[]) =>
  `    {\n      "id": ${JSON.stringify(id)},\n      "uses": "ai.generate",\n${needs ? `      "needs": ${JSON.stringify(needs)},\n` : ""}      "with": {"model": "gpt-4o-mini", "prompt": ${prompt}},\n      "output": {"mode": "text"}\n    }`;
const jsonDoc = (...steps: string[]) => `${JSON_HEAD}${steps.join(",\n")}\n  ]\n}\n`;

describe("an open `{{ steps.` being typed", () => {
  // classify reads fetch's output; typing `{{ steps.` in its prompt. A separate problem elsewhere: a
  // model the permissions do not allow, in the first step.
  const yaml = withCursor(
    YAML_HEAD +
      yamlStep("fetch", '"Fetch"').replace("model: gpt-4o-mini", "model: gpt-5") +
      yamlStep("classify", '"Classify {{ steps.| }}"', "    needs: [fetch]\n"),
  );
  const json = withCursor(jsonDoc(jsonStep("fetch", '"Fetch"').replace('"model": "gpt-4o-mini"', '"model": "gpt-5"'), jsonStep("classify", '"Classify {{ steps.| }}"', ["fetch"])));

  for (const [format, doc] of [["yaml", yaml], ["json", json]] as const) {
    const diagnostics = diagnose(doc.text, format);

    test(`${format}: the server reports the expression and the model; while typing only the model is shown`, () => {
      assert.deepEqual(codes(diagnostics), ["expression.invalid", "model.disallowed"]);
      const r = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + 200, pauseMs: PAUSE, diagnostics });
      assert.deepEqual(codes(r.shown), ["model.disallowed"]);
      assert.equal(r.held, 1);
      assert.equal(r.recheckAt, T0 + PAUSE);
    });

    test(`${format}: after the pause everything is shown, exactly the server's list`, () => {
      const r = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + PAUSE, pauseMs: PAUSE, diagnostics });
      assert.deepEqual(r.shown, diagnostics);
      assert.equal(r.held, 0);
      assert.equal(r.recheckAt, undefined);
    });

    test(`${format}: the cursor moved to another line: shown`, () => {
      const otherLine = doc.text.indexOf("\n", doc.cursor) + 3;
      const r = quietDiagnostics({ text: doc.text, cursor: otherLine, lastEdit: typedAt(doc.cursor), now: T0 + 200, pauseMs: PAUSE, diagnostics });
      assert.deepEqual(r.shown, diagnostics);
    });

    test(`${format}: the cursor left the expression on the same line: shown`, () => {
      const beforeIt = doc.text.lastIndexOf("Classify", doc.cursor);
      const r = quietDiagnostics({ text: doc.text, cursor: beforeIt, lastEdit: typedAt(doc.cursor), now: T0 + 200, pauseMs: PAUSE, diagnostics });
      assert.deepEqual(r.shown, diagnostics);
    });

    test(`${format}: an edit elsewhere (a quick fix, a format) while the cursor rests in the expression: shown`, () => {
      const elsewhere = doc.text.indexOf("gpt-5");
      const r = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(elsewhere), now: T0 + 200, pauseMs: PAUSE, diagnostics });
      assert.deepEqual(r.shown, diagnostics);
    });

    test(`${format}: no editor shows the document, or quiet typing is off (0): shown`, () => {
      const noCursor = quietDiagnostics({ text: doc.text, cursor: undefined, lastEdit: typedAt(doc.cursor), now: T0 + 200, pauseMs: PAUSE, diagnostics });
      assert.deepEqual(noCursor.shown, diagnostics);
      const off = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0, pauseMs: 0, diagnostics });
      assert.deepEqual(off.shown, diagnostics);
    });
  }

  test("yaml: not closed yet (`{{ steps.` with nothing after it): held", () => {
    const doc = withCursor(YAML_HEAD + yamlStep("classify", '"Classify {{ steps.|"'));
    const diagnostics = diagnose(doc.text, "yaml");
    assert.ok(diagnostics.length > 0);
    const r = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + 10, pauseMs: PAUSE, diagnostics });
    assert.deepEqual(r.shown, [], `held: ${codes(diagnostics).join(", ")}`);
  });

  test("yaml: an unquoted `{{ steps. }}` (a flow mapping to YAML) being typed: its notices are held", () => {
    const doc = withCursor(YAML_HEAD + yamlStep("classify", "{{ steps.| }}"));
    const diagnostics = diagnose(doc.text, "yaml");
    assert.ok(diagnostics.length > 0);
    const r = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + 10, pauseMs: PAUSE, diagnostics });
    assert.deepEqual(r.shown, [], `held: ${codes(diagnostics).join(", ")}`);
  });

  test("yaml: an expression in a block scalar: its expression.invalid (the whole block) is held", () => {
    const doc = withCursor(YAML_HEAD + yamlStep("classify", "|\n        First line.\n        Classify {{ steps.^ }}\n        Last line."), "^");
    const diagnostics = diagnose(doc.text, "yaml");
    assert.deepEqual(codes(diagnostics), ["expression.invalid"]);
    assert.ok(diagnostics[0].range.end.line > diagnostics[0].range.start.line, "the range spans the block");
    const r = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + 10, pauseMs: PAUSE, diagnostics });
    assert.deepEqual(r.shown, []);
  });
});

describe("a new step's id being typed", () => {
  // fetch is needed by nobody once `dra` (the new step, typed so far) is there: two terminals.
  const yaml = withCursor(YAML_HEAD + yamlStep("classify", '"Classify"') + yamlStep("dra|", '"Draft"'));
  const json = withCursor(jsonDoc(jsonStep("classify", '"Classify"'), jsonStep("dra", '"Draft"').replace('"dra"', '"dra|"')));

  for (const [format, doc] of [["yaml", yaml], ["json", json]] as const) {
    const diagnostics = diagnose(doc.text, format);

    test(`${format}: terminal.ambiguous names the new step, and is held while its id is typed`, () => {
      assert.deepEqual(codes(diagnostics), ["terminal.ambiguous"]);
      assert.match(String(diagnostics[0].message), /"dra"/);
      const r = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + 100, pauseMs: PAUSE, diagnostics });
      assert.deepEqual(r.shown, []);
      assert.equal(r.recheckAt, T0 + PAUSE);
    });

    test(`${format}: after the pause terminal.ambiguous is shown`, () => {
      const r = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + PAUSE + 1, pauseMs: PAUSE, diagnostics });
      assert.deepEqual(r.shown, diagnostics);
    });
  }

  test("json: the id of a step that is not a terminal: terminal.ambiguous stays shown", () => {
    // a is needed by b; b and c are the terminals. Typing in a's id changes nothing about them.
    const doc = withCursor(jsonDoc(jsonStep("a", '"A"').replace('"a"', '"a|"'), jsonStep("b", '"B"', ["a"]), jsonStep("c", '"C"')));
    const diagnostics = diagnose(doc.text, "json");
    assert.deepEqual(codes(diagnostics), ["terminal.ambiguous"]);
    const r = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + 100, pauseMs: PAUSE, diagnostics });
    assert.deepEqual(r.shown, diagnostics);
  });

  test("yaml: a duplicate id being typed is held on its line; the other step's problems are not", () => {
    const doc = withCursor(YAML_HEAD + yamlStep("classify", '"Classify"').replace("gpt-4o-mini\n", "gpt-5\n") + yamlStep("classify|", '"Again {{ steps.classify.output }}"', "    needs: [classify]\n"));
    const diagnostics = diagnose(doc.text, "yaml");
    assert.ok(codes(diagnostics).includes("step.duplicate_id"));
    assert.ok(codes(diagnostics).includes("model.disallowed"));
    const r = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + 100, pauseMs: PAUSE, diagnostics });
    const cursorLine = doc.text.slice(0, doc.cursor).split("\n").length - 1;
    assert.ok(r.held > 0);
    for (const d of diagnostics) {
      const onIt = d.range.start.line === cursorLine && d.range.end.line === cursorLine;
      assert.equal(r.shown.includes(d), !onIt, `${codeOf(d)} at line ${d.range.start.line}`);
    }
  });
});

describe("typingRegion", () => {
  const region = (marked: string) => {
    const { text, cursor } = withCursor(marked);
    const r = typingRegion(text, cursor);
    return r && { kind: r.kind, text: r.text };
  };

  test("expressions: closed, unclosed, just after `}}`; not before `{{` nor after a closed one", () => {
    assert.deepEqual(region('  prompt: "a {{ steps.| }} b"'), { kind: "expression", text: "{{ steps. }}" });
    assert.deepEqual(region("  prompt: a {{ steps.cl|"), { kind: "expression", text: "{{ steps.cl" });
    assert.deepEqual(region('  "prompt": "{{ x }}|"'), { kind: "expression", text: "{{ x }}" });
    assert.deepEqual(region('  prompt: "a |{{ x }} b"'), { kind: "token", text: "a {{ x }} b" });
    assert.deepEqual(region('  prompt: "{{ x }} {{ y|"'), { kind: "expression", text: "{{ y\"" });
  });

  test("step ids: YAML plain and quoted, JSON, JSON on one line, a YAML flow mapping", () => {
    assert.deepEqual(region("  - id: dra|"), { kind: "token", text: "dra" });
    assert.deepEqual(region("  - id: |"), { kind: "token", text: "" });
    assert.deepEqual(region("    id: 'dr|aft'  # new"), { kind: "token", text: "draft" });
    assert.deepEqual(region('      "id": "dra|",'), { kind: "token", text: "dra" });
    assert.deepEqual(region('    {"id": "a", "uses": "x"}, {"id": "b|", "uses": "y"}'), { kind: "token", text: "b" });
    assert.deepEqual(region("  - {id: dr|, uses: ai.generate}"), { kind: "token", text: "dr" });
  });

  test("every other token: values, flow items, block items, keys, a plain value with a colon", () => {
    assert.deepEqual(region("    uses: ai.gen|"), { kind: "token", text: "ai.gen" });
    assert.deepEqual(region("        to: draft-re|"), { kind: "token", text: "draft-re" });
    assert.deepEqual(region("    needs: [fetch, cla|]"), { kind: "token", text: "cla" });
    assert.deepEqual(region("    needs: [fetch, cla|"), { kind: "token", text: "cla" });
    assert.deepEqual(region("      - cla|"), { kind: "token", text: "cla" });
    assert.deepEqual(region('      "needs": ["fetch", "cla|"],'), { kind: "token", text: "cla" });
    assert.deepEqual(region("      mode: cho|"), { kind: "token", text: "cho" });
    assert.deepEqual(region("    outp|"), { kind: "token", text: "outp" });
    assert.deepEqual(region("    mo|de: text"), { kind: "token", text: "mode" });
    assert.deepEqual(region("      prompt: Summarize the ticket: |"), { kind: "token", text: "Summarize the ticket: " });
    assert.deepEqual(region('    prompt: "the id: x|"'), { kind: "token", text: "the id: x" });
    assert.equal(region("    uses: x  # a comm|ent"), undefined);
    assert.equal(region("   |"), undefined);
  });

  test("CRLF line ends", () => {
    const { text, cursor } = withCursor("steps:\r\n  - id: ab|\r\n    uses: x\r\n");
    const r = typingRegion(text, cursor);
    assert.equal(r?.line, 1);
    assert.equal(r?.text, "ab");
  });
});

test("the cursor's line, when given, gives the same decision as counting", () => {
  const doc = withCursor(YAML_HEAD + yamlStep("classify", '"Classify {{ steps.| }}"'));
  const diagnostics = diagnose(doc.text, "yaml");
  const line = doc.text.slice(0, doc.cursor).split("\n").length - 1;
  const base = { text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + 10, pauseMs: PAUSE, diagnostics };
  const counted = quietDiagnostics(base);
  assert.equal(counted.held, 1);
  assert.deepEqual(quietDiagnostics({ ...base, cursorLine: line }), counted);
  assert.equal(typingRegion(doc.text, doc.cursor)?.line, line);
});

// ---- every token being typed (issue #22): each case is the text as it stands mid-typing, the cursor
// at the end of what was just typed. What the server reports about that token is held; the rest shown.
describe("every token being typed is quiet; nothing else is held", () => {
  const yamlDecision = (target: string) =>
    YAML_HEAD + yamlStep("fetch", '"Fetch"') +
    `  - id: route\n    uses: decision\n    needs: [fetch]\n    with:\n      cases:\n        - when: "{{ steps.fetch.output == 'a' }}"\n          to: ${target}\n      default: done\n` +
    yamlStep("done", '"Done"', "    needs: [fetch]\n");
  const cases: Array<{ name: string; format: "yaml" | "json"; marked: string; held: string[] }> = [
    { name: "a decision target (`to:`)", format: "yaml", marked: yamlDecision("draft-re|"), held: ["decision.target_not_in_scope"] },
    { name: "a decision's `default:`", format: "yaml", marked: yamlDecision("done").replace("default: done", "default: do|"), held: ["decision.target_not_in_scope"] },
    { name: "a `needs` item in a flow sequence", format: "yaml", marked: YAML_HEAD + yamlStep("fetch", '"Fetch"') + yamlStep("classify", '"Classify {{ steps.fetch.output }}"', "    needs: [fet|]\n"), held: ["step.missing_dependency"] },
    { name: "a `needs` item in a block sequence", format: "yaml", marked: YAML_HEAD + yamlStep("fetch", '"Fetch"') + yamlStep("classify", '"Classify {{ steps.fetch.output }}"', "    needs:\n      - fet|\n"), held: ["step.missing_dependency"] },
    { name: "a `needs` item in JSON", format: "json", marked: jsonDoc(jsonStep("fetch", '"Fetch"'), jsonStep("classify", '"Classify {{ steps.fetch.output }}"', ["fet|"])), held: ["step.missing_dependency"] },
    { name: "a `mode:` value (its finding sits on `output:`, the line above)", format: "yaml", marked: YAML_HEAD + yamlStep("fetch", '"Fetch"').replace("mode: text", "mode: cho|"), held: ["output.invalid"] },
    { name: "a `mode` value in JSON", format: "json", marked: jsonDoc(jsonStep("fetch", '"Fetch"').replace('"mode": "text"', '"mode": "cho|"')), held: ["output.invalid"] },
    { name: "a model name", format: "yaml", marked: YAML_HEAD + yamlStep("fetch", '"Fetch"').replace("model: gpt-4o-mini", "model: gpt-4o-m|"), held: ["model.disallowed"] },
    { name: "a model name in JSON", format: "json", marked: jsonDoc(jsonStep("fetch", '"Fetch"').replace('"model": "gpt-4o-mini"', '"model": "gpt-4o-m|"')), held: ["model.disallowed"] },
    { name: "a forward reference to a step not written yet", format: "yaml", marked: YAML_HEAD + yamlStep("fetch", '"Fetch {{ steps.draft.output }}|"', "    needs: [draft]\n"), held: ["step.missing_dependency"] },
    { name: "a plain value that just got `ticket: ` (YAML's colon error)", format: "yaml", marked: YAML_HEAD + yamlStep("fetch", "Summarize the ticket: |"), held: ["parse"] },
    { name: "a key being typed", format: "yaml", marked: YAML_HEAD + yamlStep("fetch", '"Fetch"').replace("    output:\n      mode: text\n", "    outp|\n"), held: ["parse"] },
    { name: "`{{ steps.` with the completion list open", format: "yaml", marked: YAML_HEAD + yamlStep("fetch", '"Fetch {{ steps.| }}"'), held: ["expression.invalid"] },
  ];

  for (const c of cases) {
    test(`${c.format}: ${c.name}`, () => {
      const doc = withCursor(c.marked);
      const diagnostics = diagnose(doc.text, c.format);
      for (const code of c.held) assert.ok(codes(diagnostics).includes(code), `the server reports ${code}: ${codes(diagnostics).join(", ")}`);
      const typing = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + 300, pauseMs: PAUSE, diagnostics });
      const held = diagnostics.filter((d) => !typing.shown.includes(d));
      for (const code of c.held) assert.ok(codes(held).includes(code), `${code} held while typing; held: ${codes(held).join(", ")}; shown: ${codes(typing.shown).join(", ")}`);
      // what is held is about the token: on the cursor's line, or naming what is typed there
      const region = typingRegion(doc.text, doc.cursor)!;
      for (const d of held) {
        const onLine = d.range.start.line === region.line;
        assert.ok(onLine || String(d.message).includes(`"${region.text}"`) || String(d.message).includes(region.text.trim()), `${codeOf(d)} held: ${d.message}`);
      }
      assert.equal(typing.recheckAt, T0 + PAUSE);
      const paused = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + PAUSE, pauseMs: PAUSE, diagnostics });
      assert.deepEqual(paused.shown, diagnostics, "after the pause: exactly the server's list");
      const away = quietDiagnostics({ text: doc.text, cursor: 0, lastEdit: typedAt(doc.cursor), now: T0 + 300, pauseMs: PAUSE, diagnostics });
      assert.deepEqual(away.shown, diagnostics, "the cursor left: exactly the server's list");
    });
  }

  test("yaml: the same mistake in another step is shown while the same name is typed here", () => {
    // step one already has model "gpt-4o-m" (a settled problem); typing the same name in step two
    const doc = withCursor(YAML_HEAD + yamlStep("one", '"One"').replace("model: gpt-4o-mini", "model: gpt-4o-m") + yamlStep("two", '"Two"', "    needs: [one]\n").replace("model: gpt-4o-mini", "model: gpt-4o-m|"));
    const diagnostics = diagnose(doc.text, "yaml").filter((d) => codeOf(d) === "model.disallowed");
    assert.equal(diagnostics.length, 2);
    const r = quietDiagnostics({ text: doc.text, cursor: doc.cursor, lastEdit: typedAt(doc.cursor), now: T0 + 300, pauseMs: PAUSE, diagnostics });
    assert.equal(r.held, 1);
    assert.equal(r.shown[0], diagnostics[0], "the first step's is shown");
  });

  test("any cursor, any recent edit at it: what is held lies on the cursor's line or on a line enclosing it, and names the token", () => {
    // every position of a document with problems in many places
    for (const [format, text] of [
      ["yaml", YAML_HEAD + yamlStep("one", '"One {{ steps.nope.output }}"').replace("mode: text", "mode: cho") + yamlStep("two", "Summarize {{ input.x }}", "    needs: [on]\n") + yamlStep("three", '"Three"')],
      ["yaml", YAML_HEAD + yamlStep("one", "Summarize: x")],
      ["json", jsonDoc(jsonStep("one", '"One {{ steps.nope.output }}"').replace('"mode": "text"', '"mode": "cho"'), jsonStep("two", '"Two"', ["on"]))],
    ] as const) {
      const diagnostics = diagnose(text, format);
      assert.ok(diagnostics.length >= (text.includes("Summarize: x") ? 1 : 3), codes(diagnostics).join(", "));
      everyCursor(text, diagnostics);
    }
  });
});

/** At every cursor position, with an edit just ended there: what is held is on the cursor's line, or above it naming the token. */
function everyCursor(text: string, diagnostics: ReturnType<typeof diagnose>): void {
  {
    let heldSomewhere = 0;
    const lineOf = (o: number) => text.slice(0, o).split("\n").length - 1;
    for (let cursor = 0; cursor <= text.length; cursor++) {
      const r = quietDiagnostics({ text, cursor, lastEdit: typedAt(cursor), now: T0 + 10, pauseMs: PAUSE, diagnostics });
      const region = typingRegion(text, cursor);
      heldSomewhere += r.held;
      for (const d of diagnostics.filter((x) => !r.shown.includes(x))) {
        assert.ok(region, `held with no token at ${cursor}`);
        assert.ok(d.range.start.line <= lineOf(cursor), `${codeOf(d)} held from below the cursor (${cursor})`);
        if (d.range.start.line !== region!.line) assert.ok(String(d.message).includes(region!.text), `${codeOf(d)} held from line ${d.range.start.line} at ${cursor} without naming ${JSON.stringify(region!.text)}: ${d.message}`);
      }
    }
    assert.ok(heldSomewhere > 0, "something is held somewhere");
  }
}
